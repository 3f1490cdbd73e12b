-- Incidents per project: opened by a user or from an alert (by hand or by the create_incident
-- setting), closed and reopened by users (or closed by a recovery payload with auto_close_incident).
-- iids count from 1 per project, as alert iids do, from a counter row locked by each creation.
CREATE TYPE "incident_status" AS ENUM ('open', 'closed');

CREATE TABLE "incidents" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "iid" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "severity" "alert_severity" NOT NULL DEFAULT 'critical',
    "status" "incident_status" NOT NULL DEFAULT 'open',
    "created_by_user_id" BIGINT,
    "created_by_alert_id" BIGINT,
    "closed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incidents_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "incidents_project_id_iid_key" ON "incidents"("project_id", "iid");
CREATE INDEX "incidents_project_id_status_iid_idx" ON "incidents"("project_id", "status", "iid" DESC);

ALTER TABLE "incidents" ADD CONSTRAINT "incidents_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_created_by_alert_id_fkey" FOREIGN KEY ("created_by_alert_id") REFERENCES "alerts"("id") ON DELETE SET NULL ON UPDATE CASCADE;

CREATE TABLE "incident_iid_counters" (
    "project_id" BIGINT NOT NULL,
    "last_iid" INTEGER NOT NULL,

    CONSTRAINT "incident_iid_counters_pkey" PRIMARY KEY ("project_id")
);

-- An alert belongs to at most one incident: the column itself says so, and linking sets it only
-- while it is NULL, so two links of one alert at once make one.
ALTER TABLE "alerts" ADD COLUMN "incident_id" BIGINT;
CREATE INDEX "alerts_incident_id_idx" ON "alerts"("incident_id") WHERE "incident_id" IS NOT NULL;
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE SET NULL ON UPDATE CASCADE;

ALTER TABLE "activity_entries" ADD CONSTRAINT "activity_entries_incident_id_fkey" FOREIGN KEY ("incident_id") REFERENCES "incidents"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Incident events written in the transaction of the change, published to incidents.events.v1 by
-- the outbox relay (libs/shared/outbox), as alert events are.
CREATE TABLE "incident_event_outbox" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSON,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "incident_event_outbox_pkey" PRIMARY KEY ("id")
);
