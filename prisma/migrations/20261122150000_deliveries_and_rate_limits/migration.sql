-- AlterTable: an integration's own rate limit at the gateway (requests per minute); NULL: the
-- gateway's default (GATEWAY_RATE_LIMIT_PER_MINUTE).
ALTER TABLE "alert_integrations" ADD COLUMN "rate_limit_per_minute" INTEGER;
ALTER TABLE "alert_integrations" ADD CONSTRAINT "alert_integrations_rate_limit_positive"
    CHECK ("rate_limit_per_minute" IS NULL OR "rate_limit_per_minute" > 0);

-- CreateTable: what monitoring tools sent to an integration's URL and what became of it
-- (CONTRACT.md "deliveries"), written by alert-processor: with the alerts in the batch transaction,
-- from the gateway's delivery records for refusals and 202s. Pruned by age and count per integration.
CREATE TABLE "alert_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" UUID NOT NULL,
    "project_id" BIGINT NOT NULL,
    "integration_id" BIGINT NOT NULL,
    "request_id" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL,
    "status" INTEGER NOT NULL,
    "error" TEXT,
    "alerts" JSONB NOT NULL DEFAULT '[]',
    "body" TEXT NOT NULL,
    "body_size" INTEGER NOT NULL,
    "body_truncated" BOOLEAN NOT NULL,

    CONSTRAINT "alert_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "alert_deliveries_delivery_id_key" ON "alert_deliveries"("delivery_id");

-- CreateIndex: the latest deliveries of an integration, newest first.
CREATE INDEX "alert_deliveries_integration_id_received_at_idx" ON "alert_deliveries"("integration_id", "received_at" DESC, "id" DESC);

-- CreateIndex: pruning by age.
CREATE INDEX "alert_deliveries_received_at_idx" ON "alert_deliveries"("received_at");
