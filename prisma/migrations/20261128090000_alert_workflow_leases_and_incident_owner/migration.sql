-- An incident's owner: a project member, kept with their username as alerts keep their assignees'.
ALTER TABLE "incidents" ADD COLUMN "owner_user_id" BIGINT;
ALTER TABLE "incidents" ADD COLUMN "owner_username" TEXT;

-- Alert emails are sent outside any transaction: the mailer claims due notifications with a lease
-- (claimed_by names the claim, claimed_until ends it; next_attempt_at is set to the same instant, so
-- a claim whose mailer stopped is due again when its lease runs out), commits, sends, and records
-- the outcome only where its claim still holds. message_id is kept from the first claim of a
-- bundle, so a message sent again after a crash carries the same Message-ID.
ALTER TABLE "alert_notifications" ADD COLUMN "claimed_by" TEXT;
ALTER TABLE "alert_notifications" ADD COLUMN "claimed_until" TIMESTAMPTZ(3);
-- When the change happened (a bundle lists its alerts in this order); older rows: when recorded.
ALTER TABLE "alert_notifications" ADD COLUMN "occurred_at" TIMESTAMPTZ(3);

-- `cancelled`: before it went, the change was undone or a silence came to cover the alert.
ALTER TABLE "alert_notifications" DROP CONSTRAINT "alert_notifications_status_check";
ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_status_check" CHECK ("status" IN ('pending', 'sent', 'failed', 'suppressed', 'cancelled'));

-- A recipient's waiting bundle: a notification being sent (claimed) is no bundle new ones can join.
DROP INDEX "alert_notifications_recipient_waiting_idx";
CREATE INDEX "alert_notifications_recipient_waiting_idx" ON "alert_notifications"("recipient", "next_attempt_at") WHERE "status" = 'pending' AND "attempts" = 0 AND "claimed_until" IS NULL;
