-- Escalation until someone acknowledges, owned by alert-processor (docs/api-guide.md "Escalation
-- policies", "Paging"): each project's policy, the runs of each alert's escalation with their next
-- step, the pages they send, and how each user is paged. Pending steps and pages live here with
-- their due time, so they survive restarts of every process.

-- A project's policy: ordered rules [{after_minutes, condition, targets: [{type, schedule_id, name}
-- | {type, user_id, username} | {type, url}]}] and how many times they run again.
CREATE TABLE "escalation_policies" (
    "project_id" BIGINT NOT NULL,
    "rules" JSONB NOT NULL,
    "repeat" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "escalation_policies_pkey" PRIMARY KEY ("project_id"),
    CONSTRAINT "escalation_policies_repeat_check" CHECK ("repeat" BETWEEN 0 AND 9)
);

ALTER TABLE "escalation_policies" ADD CONSTRAINT "escalation_policies_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The signing secret of each webhook URL a project's policy pages (shown once, when the URL is
-- first saved or its secret reset). Kept as is: pages are signed with it.
CREATE TABLE "escalation_webhook_secrets" (
    "project_id" BIGINT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "escalation_webhook_secrets_pkey" PRIMARY KEY ("project_id", "url")
);

ALTER TABLE "escalation_webhook_secrets" ADD CONSTRAINT "escalation_webhook_secrets_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- One run of an alert's escalation (a re-trigger after resolution starts the next), with the policy
-- as it was when the run started, and its next step (loop and rule, from 0) and when it is due. The
-- engine takes due runs FOR UPDATE SKIP LOCKED, with their alert's row FOR UPDATE, in one
-- transaction: each step is taken once, whichever processor takes it.
CREATE TABLE "alert_escalations" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "alert_id" BIGINT NOT NULL,
    "run" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3) NOT NULL,
    -- The alert event that started the run: a redelivered event starts none.
    "started_by_event" TEXT NOT NULL,
    "policy" JSONB NOT NULL,
    "state" TEXT NOT NULL,
    "next_loop" INTEGER,
    "next_rule" INTEGER,
    "next_due_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),
    "ended_reason" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "alert_escalations_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "alert_escalations_state_check" CHECK ("state" IN ('running', 'acknowledged', 'ended', 'skipped')),
    CONSTRAINT "alert_escalations_next_step_check" CHECK (("next_loop" IS NULL) = ("next_rule" IS NULL) AND ("next_loop" IS NULL) = ("next_due_at" IS NULL))
);

CREATE UNIQUE INDEX "alert_escalations_alert_id_run_key" ON "alert_escalations"("alert_id", "run");
CREATE UNIQUE INDEX "alert_escalations_alert_id_started_by_event_key" ON "alert_escalations"("alert_id", "started_by_event");
-- The engine's queue: runs with a step to take, by due time.
CREATE INDEX "alert_escalations_due_idx" ON "alert_escalations"("next_due_at") WHERE "next_due_at" IS NOT NULL;
ALTER TABLE "alert_escalations" ADD CONSTRAINT "alert_escalations_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A page (a rule reaching someone by a contact method, or a webhook target) or a notice (of an
-- acknowledgement or resolution, to those paged who asked for it). Sent outside any transaction:
-- the engine leases due pages (claimed_by, claimed_until; next_attempt_at set to the same instant,
-- so a page whose sender stopped is due again when its lease runs out), commits, sends, and records
-- the outcome where its lease still holds. idempotency_key names the page on every attempt (the
-- webhook's Idempotency-Key, the email's Message-ID).
CREATE TABLE "escalation_pages" (
    "id" BIGSERIAL NOT NULL,
    "escalation_id" BIGINT NOT NULL,
    "project_id" BIGINT NOT NULL,
    "alert_id" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "loop" INTEGER NOT NULL,
    "rule" INTEGER,
    "condition" TEXT,
    "method" TEXT NOT NULL,
    "user_id" BIGINT,
    "username" TEXT,
    "address" TEXT NOT NULL,
    "contact_method_id" BIGINT,
    "notice_of" TEXT,
    "notice_by" TEXT,
    "idempotency_key" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL,
    "claimed_by" TEXT,
    "claimed_until" TIMESTAMPTZ(3),
    "error" TEXT,
    "sent_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "escalation_pages_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "escalation_pages_kind_check" CHECK ("kind" IN ('page', 'notice')),
    CONSTRAINT "escalation_pages_method_check" CHECK ("method" IN ('email', 'webhook')),
    CONSTRAINT "escalation_pages_status_check" CHECK ("status" IN ('pending', 'sent', 'failed', 'cancelled')),
    CONSTRAINT "escalation_pages_condition_check" CHECK ("condition" IN ('not_acknowledged', 'not_resolved'))
);

CREATE UNIQUE INDEX "escalation_pages_idempotency_key_key" ON "escalation_pages"("idempotency_key");
CREATE INDEX "escalation_pages_escalation_id_id_idx" ON "escalation_pages"("escalation_id", "id");
-- The engine's queue of pages.
CREATE INDEX "escalation_pages_pending_idx" ON "escalation_pages"("next_attempt_at") WHERE "status" = 'pending';
ALTER TABLE "escalation_pages" ADD CONSTRAINT "escalation_pages_escalation_id_fkey" FOREIGN KEY ("escalation_id") REFERENCES "alert_escalations"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "escalation_pages" ADD CONSTRAINT "escalation_pages_alert_id_fkey" FOREIGN KEY ("alert_id") REFERENCES "alerts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- How each user is paged: their contact methods (an email address, or a webhook URL with its signing
-- secret, shown once), their notification rules (a method after N minutes; none: every method at
-- once) and whether they want notices. They belong to the user, in any project.
CREATE TABLE "user_contact_methods" (
    "id" BIGSERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "secret" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_contact_methods_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "user_contact_methods_type_check" CHECK ("type" IN ('email', 'webhook')),
    CONSTRAINT "user_contact_methods_secret_check" CHECK (("type" = 'webhook') = ("secret" IS NOT NULL))
);

CREATE UNIQUE INDEX "user_contact_methods_user_id_name_key" ON "user_contact_methods"("user_id", "name");
CREATE UNIQUE INDEX "user_contact_methods_user_id_type_address_key" ON "user_contact_methods"("user_id", "type", "address");
ALTER TABLE "user_contact_methods" ADD CONSTRAINT "user_contact_methods_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "user_notification_rules" (
    "id" BIGSERIAL NOT NULL,
    "user_id" BIGINT NOT NULL,
    "contact_method_id" BIGINT NOT NULL,
    "after_minutes" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_notification_rules_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "user_notification_rules_after_minutes_check" CHECK ("after_minutes" BETWEEN 0 AND 1440)
);

CREATE UNIQUE INDEX "user_notification_rules_contact_method_id_after_minutes_key" ON "user_notification_rules"("contact_method_id", "after_minutes");
CREATE INDEX "user_notification_rules_user_id_idx" ON "user_notification_rules"("user_id");
ALTER TABLE "user_notification_rules" ADD CONSTRAINT "user_notification_rules_contact_method_id_fkey" FOREIGN KEY ("contact_method_id") REFERENCES "user_contact_methods"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "user_paging_settings" (
    "user_id" BIGINT NOT NULL,
    "status_notices" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "user_paging_settings_pkey" PRIMARY KEY ("user_id")
);

ALTER TABLE "user_paging_settings" ADD CONSTRAINT "user_paging_settings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
