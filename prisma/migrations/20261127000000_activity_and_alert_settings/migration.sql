-- The activity timeline of alerts and incidents: append-only typed entries, each written in the
-- transaction of the change it records. An entry belongs to an alert or to an incident (the
-- incidents table adds its foreign key). `actor_user_id` NULL means the service did it.
CREATE TABLE "activity_entries" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "alert_id" BIGINT,
    "incident_id" BIGINT,
    "kind" TEXT NOT NULL,
    "actor_user_id" BIGINT,
    "source" TEXT NOT NULL,
    "reason" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "activity_entries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "activity_entries_subject_check" CHECK ("alert_id" IS NOT NULL OR "incident_id" IS NOT NULL)
);

CREATE INDEX "activity_entries_alert_id_id_idx" ON "activity_entries"("alert_id", "id") WHERE "alert_id" IS NOT NULL;
CREATE INDEX "activity_entries_incident_id_id_idx" ON "activity_entries"("incident_id", "id") WHERE "incident_id" IS NOT NULL;

ALTER TABLE "activity_entries" ADD CONSTRAINT "activity_entries_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- GitLab's three alert settings per project (Settings > Monitor > Alerts), all off until a
-- maintainer turns them on; a project without a row has them all off.
CREATE TABLE "project_alert_settings" (
    "project_id" BIGINT NOT NULL,
    "create_incident" BOOLEAN NOT NULL DEFAULT false,
    "send_email" BOOLEAN NOT NULL DEFAULT false,
    "auto_close_incident" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_alert_settings_pkey" PRIMARY KEY ("project_id")
);

ALTER TABLE "project_alert_settings" ADD CONSTRAINT "project_alert_settings_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;
