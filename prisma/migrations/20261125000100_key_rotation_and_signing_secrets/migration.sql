-- AlterTable: key rotation with a grace period. A reset with grace_period_minutes keeps the
-- replaced key (encrypted like the current one, and its SHA-256 for the gateway) until its expiry;
-- one previous key at most. The three columns are set together or not at all.
ALTER TABLE "alert_integrations" ADD COLUMN "previous_authorization_key_encrypted" TEXT;
ALTER TABLE "alert_integrations" ADD COLUMN "previous_authorization_key_sha256" CHAR(64);
ALTER TABLE "alert_integrations" ADD COLUMN "previous_authorization_key_expires_at" TIMESTAMPTZ(3);
ALTER TABLE "alert_integrations" ADD CONSTRAINT "alert_integrations_previous_key_whole"
    CHECK (("previous_authorization_key_encrypted" IS NULL) = ("previous_authorization_key_sha256" IS NULL)
       AND ("previous_authorization_key_encrypted" IS NULL) = ("previous_authorization_key_expires_at" IS NULL));

-- AlterTable: the webhook signing secret, AES-256-GCM under a key derived from
-- INTEGRATION_KEY_ENCRYPTION_KEY (signingSecretCipher); the same ciphertext travels in the
-- integration snapshot so the gateway can verify signatures. NULL: requests are not signed.
ALTER TABLE "alert_integrations" ADD COLUMN "signing_secret_encrypted" TEXT;

-- AlterTable: which authorization key a delivery presented ('current', or 'previous' during a
-- rotation's grace period); NULL when none matched.
ALTER TABLE "alert_deliveries" ADD COLUMN "authorization_key" TEXT;
ALTER TABLE "alert_deliveries" ADD CONSTRAINT "alert_deliveries_authorization_key_known"
    CHECK ("authorization_key" IS NULL OR "authorization_key" IN ('current', 'previous'));
