-- The mailer claims the earliest due notifications in (next_attempt_at, id) order: an index in that
-- order lets it stop after the claimed ones instead of sorting every pending row of a storm.
DROP INDEX "alert_notifications_pending_idx";
CREATE INDEX "alert_notifications_pending_idx" ON "alert_notifications"("next_attempt_at", "id") WHERE "status" = 'pending';

-- When a recipient's bundle is due: the earliest first-attempt pending notification of each
-- recipient, read as the first entry of this index instead of a scan of every pending row.
CREATE INDEX "alert_notifications_recipient_waiting_idx" ON "alert_notifications"("recipient", "next_attempt_at") WHERE "status" = 'pending' AND "attempts" = 0;
