-- CreateTable: the previous authorization keys of an integration (key rotation with a grace
-- period). Each keeps working until its own expires_at, so a second reset during a grace period
-- no longer drops the first previous key; integration-config keeps at most two that still work
-- (README "Rotating an authorization key without dropping alerts"). Encrypted like the current key,
-- with its SHA-256 for the gateway; replaced_at orders them (newest first).
CREATE TABLE "alert_integration_previous_keys" (
    "id" BIGSERIAL NOT NULL,
    "integration_id" BIGINT NOT NULL,
    "authorization_key_encrypted" TEXT NOT NULL,
    "authorization_key_sha256" CHAR(64) NOT NULL,
    "replaced_at" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_integration_previous_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "alert_integration_previous_keys_integration_id_idx" ON "alert_integration_previous_keys"("integration_id");

-- AddForeignKey
ALTER TABLE "alert_integration_previous_keys" ADD CONSTRAINT "alert_integration_previous_keys_integration_id_fkey" FOREIGN KEY ("integration_id") REFERENCES "alert_integrations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The previous key of a rotation still under way moves here. The single-key columns of
-- alert_integrations stay for the previous release during a rolling update: integration-config
-- keeps them equal to the newest previous key (what that release shows and publishes); a later
-- release drops them.
INSERT INTO "alert_integration_previous_keys" ("integration_id", "authorization_key_encrypted", "authorization_key_sha256", "replaced_at", "expires_at")
SELECT "id", "previous_authorization_key_encrypted", "previous_authorization_key_sha256", "updated_at", "previous_authorization_key_expires_at"
FROM "alert_integrations"
WHERE "previous_authorization_key_encrypted" IS NOT NULL AND "previous_authorization_key_expires_at" > CURRENT_TIMESTAMP;

-- AlterTable: when the previous key a delivery presented stops working, which tells the previous
-- keys apart ('previous' alone cannot say which); NULL for the current key or none.
ALTER TABLE "alert_deliveries" ADD COLUMN "authorization_key_expires_at" TIMESTAMPTZ(3);
