-- The escalation consumer's demand probe asks every few seconds whether any run is still open
-- (running or acknowledged). Without an index on it that question reads every run ever started,
-- and every dead version their updates left until VACUUM; with this partial index it reads the
-- open runs' entries only, usually none.
CREATE INDEX "alert_escalations_open_idx" ON "alert_escalations"("id") WHERE "state" IN ('running', 'acknowledged');
