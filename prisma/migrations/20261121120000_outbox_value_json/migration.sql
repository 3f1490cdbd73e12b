-- AlterTable: the outbox keeps each event as the JSON text the processor wrote (json, not jsonb).
-- The relay publishes that text as it is; jsonb would parse every event on the way in and print
-- it again on the way out, for a column nothing ever queries inside.
ALTER TABLE "alert_event_outbox" ALTER COLUMN "value" SET DATA TYPE JSON USING "value"::json;
