-- AlterTable (integration-config): an HTTP Endpoint with a signing secret may accept Grafana-form
-- signatures without a timestamp header; off by default (such a signature never grows old, only the
-- gateway's replay cache stands between it and a replay).
ALTER TABLE "alert_integrations" ADD COLUMN "allow_signature_without_timestamp" BOOLEAN NOT NULL DEFAULT false;
