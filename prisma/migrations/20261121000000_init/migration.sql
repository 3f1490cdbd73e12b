-- CreateEnum
CREATE TYPE "project_tier" AS ENUM ('free', 'premium');

-- CreateEnum
CREATE TYPE "access_level" AS ENUM ('guest', 'reporter', 'developer', 'maintainer', 'owner');

-- CreateEnum
CREATE TYPE "integration_type" AS ENUM ('http', 'external_link');

-- CreateEnum
CREATE TYPE "alert_severity" AS ENUM ('critical', 'high', 'medium', 'low', 'info', 'unknown');

-- CreateEnum
CREATE TYPE "alert_status" AS ENUM ('triggered', 'acknowledged', 'resolved', 'ignored');

-- CreateTable
CREATE TABLE "users" (
    "id" BIGSERIAL NOT NULL,
    "username" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "personal_access_tokens" (
    "id" BIGSERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "token_sha256" CHAR(64) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "personal_access_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "projects" (
    "id" BIGSERIAL NOT NULL,
    "path" TEXT NOT NULL,
    "tier" "project_tier" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "projects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "project_members" (
    "project_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "access_level" "access_level" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "project_members_pkey" PRIMARY KEY ("project_id","user_id")
);

-- CreateTable
CREATE TABLE "alert_integrations" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "type" "integration_type" NOT NULL,
    "name" TEXT NOT NULL,
    "active" BOOLEAN NOT NULL DEFAULT false,
    "url_token" TEXT NOT NULL,
    "authorization_key_encrypted" TEXT NOT NULL,
    "authorization_key_sha256" CHAR(64) NOT NULL,
    "sample_payload" TEXT,
    "payload_field_mapping" JSONB NOT NULL DEFAULT '[]',
    "api_url" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "alert_integrations_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alerts" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "iid" INTEGER NOT NULL,
    "integration_id" BIGINT NOT NULL,
    "title" TEXT NOT NULL,
    "description" TEXT,
    "severity" "alert_severity" NOT NULL,
    "status" "alert_status" NOT NULL DEFAULT 'triggered',
    "events" INTEGER NOT NULL DEFAULT 1,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    "ended_at" TIMESTAMPTZ(3),
    "service" TEXT,
    "monitoring_tool" TEXT,
    "hosts" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "platform_environment_name" TEXT,
    "fingerprint" TEXT,
    "fingerprint_sha256" CHAR(64),
    "payload" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alerts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "alert_iid_counters" (
    "project_id" BIGINT NOT NULL,
    "last_iid" INTEGER NOT NULL,

    CONSTRAINT "alert_iid_counters_pkey" PRIMARY KEY ("project_id")
);

-- CreateTable
CREATE TABLE "processed_raw_alerts" (
    "request_id" UUID NOT NULL,
    "project_id" BIGINT NOT NULL,
    "result" JSONB NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "processed_raw_alerts_pkey" PRIMARY KEY ("request_id")
);

-- CreateTable
CREATE TABLE "alert_event_outbox" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "iid" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_event_outbox_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");

-- CreateIndex
CREATE UNIQUE INDEX "personal_access_tokens_token_sha256_key" ON "personal_access_tokens"("token_sha256");

-- CreateIndex
CREATE INDEX "personal_access_tokens_user_id_idx" ON "personal_access_tokens"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "projects_path_key" ON "projects"("path");

-- CreateIndex
CREATE INDEX "project_members_user_id_idx" ON "project_members"("user_id");

-- CreateIndex
CREATE UNIQUE INDEX "alert_integrations_url_token_key" ON "alert_integrations"("url_token");

-- CreateIndex
CREATE INDEX "alert_integrations_project_id_idx" ON "alert_integrations"("project_id");

-- CreateIndex
CREATE INDEX "alerts_project_id_status_created_at_idx" ON "alerts"("project_id", "status", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "alerts_project_id_iid_key" ON "alerts"("project_id", "iid");

-- CreateIndex
CREATE INDEX "processed_raw_alerts_processed_at_idx" ON "processed_raw_alerts"("processed_at");

-- AddForeignKey
ALTER TABLE "personal_access_tokens" ADD CONSTRAINT "personal_access_tokens_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "alert_integrations" ADD CONSTRAINT "alert_integrations_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Grouping (spec 3, CONTRACT.md): at most one not-resolved alert per project and fingerprint.
-- Prisma's schema language cannot express a partial index, so it lives here only.
CREATE UNIQUE INDEX "alerts_open_fingerprint_key" ON "alerts"("project_id", "fingerprint_sha256")
    WHERE "status" <> 'resolved' AND "fingerprint_sha256" IS NOT NULL;

-- Integrity the API also checks, kept by the database so no writer can break it.
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_iid_positive" CHECK ("iid" > 0);
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_events_positive" CHECK ("events" > 0);

-- Alert integrations (spec 1.4, 2.1, 2.3). Prisma's schema language cannot express partial indexes
-- or checks, so these live here only:
-- * Premium HTTP Endpoints are uniquely named per project (the Free tier's single one has the default name);
-- * a project has at most one external link integration, and only it has an api_url;
-- * the external link receives no alerts, so it has no sample payload or payload field mapping.
-- The Free tier's "one HTTP Endpoint" depends on projects.tier, so no index can hold it: every
-- integration write locks the project row (SELECT ... FOR UPDATE) and checks under that lock.
CREATE UNIQUE INDEX "alert_integrations_http_name_key" ON "alert_integrations"("project_id", "name")
    WHERE "type" = 'http';
CREATE UNIQUE INDEX "alert_integrations_one_external_link_key" ON "alert_integrations"("project_id")
    WHERE "type" = 'external_link';
ALTER TABLE "alert_integrations" ADD CONSTRAINT "alert_integrations_api_url_only_external_link"
    CHECK (("type" = 'external_link') = ("api_url" IS NOT NULL));
ALTER TABLE "alert_integrations" ADD CONSTRAINT "alert_integrations_no_mapping_on_external_link"
    CHECK ("type" = 'http' OR ("sample_payload" IS NULL AND "payload_field_mapping" = '[]'::jsonb));
ALTER TABLE "alert_integrations" ADD CONSTRAINT "alert_integrations_name_not_blank" CHECK (btrim("name") <> '');
ALTER TABLE "alert_integrations" ADD CONSTRAINT "alert_integrations_version_positive" CHECK ("version" > 0);
