-- Users' email addresses (set by the administrator or by the user), stored lower-case: one account
-- per address. NULL: the user gets no email.
ALTER TABLE "users" ADD COLUMN "email" TEXT;
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");
ALTER TABLE "users" ADD CONSTRAINT "users_email_lower_check" CHECK ("email" = lower("email"));

-- Alert emails: one row per (alert event, recipient), decided from alerts.events.v1 (alert.created and
-- alert.resolved only), so a redelivered raw alert or event makes one email. The mailer sends pending
-- rows (bundled per recipient), retries with backoff, and records sent, failed or suppressed (hourly
-- cap). `message_id` names the email a row went out in (several rows share one when bundled).
CREATE TABLE "alert_notifications" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "alert_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "recipient" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "error" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "message_id" TEXT,
    "event_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_notifications_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_notifications_reason_check" CHECK ("reason" IN ('new', 'resolved')),
    CONSTRAINT "alert_notifications_status_check" CHECK ("status" IN ('pending', 'sent', 'failed', 'suppressed'))
);

CREATE UNIQUE INDEX "alert_notifications_event_id_user_id_key" ON "alert_notifications"("event_id", "user_id");
CREATE INDEX "alert_notifications_project_id_id_idx" ON "alert_notifications"("project_id", "id");
CREATE INDEX "alert_notifications_alert_id_id_idx" ON "alert_notifications"("alert_id", "id");
-- The mailer's queue, and each recipient's emails of the last hour (the cap).
CREATE INDEX "alert_notifications_pending_idx" ON "alert_notifications"("next_attempt_at") WHERE "status" = 'pending';
CREATE INDEX "alert_notifications_recipient_sent_at_idx" ON "alert_notifications"("recipient", "sent_at") WHERE "status" = 'sent';

ALTER TABLE "alert_notifications" ADD CONSTRAINT "alert_notifications_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE;
