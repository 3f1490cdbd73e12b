-- AlterTable: an alert keeps its payload as the JSON text the processor wrote (json, not jsonb).
-- jsonb refuses a string with \u0000 and one with an unpaired UTF-16 surrogate, which monitoring
-- tools do send; json checks the text and keeps it, escapes included, so the payload comes back
-- exactly as it was received. Nothing queries inside the payload.
ALTER TABLE "alerts" ALTER COLUMN "payload" SET DATA TYPE JSON USING "payload"::json;
