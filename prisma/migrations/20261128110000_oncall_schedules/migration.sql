-- On-call schedules of a project, owned by alert-processor (docs/api-guide.md "On-call schedules"):
-- rotations (each change of their rules a new version in force from when it was made, so past shifts
-- never change), overrides, the members removed from rotations, and the on-call event outbox.
-- Users are kept as the API shows them (id and username: usernames never change); the processor reads
-- integration-config's users and members only through access control.
CREATE TABLE "oncall_schedules" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    -- An IANA zone name, as the runtime's time zone database spells it.
    "time_zone" TEXT NOT NULL,
    -- The calendar feed's secret: only its SHA-256 is kept (shown once, when reset).
    "calendar_token_sha256" CHAR(64),
    "calendar_token_created_at" TIMESTAMPTZ(3),
    -- The handoff publisher's progress: every change of who is on call up to this instant is in
    -- oncall_event_outbox, and `published_on_call` is who was on call then ([{id, username}]).
    "published_until" TIMESTAMPTZ(3) NOT NULL,
    "published_on_call" JSONB NOT NULL DEFAULT '[]',
    -- When the publisher should look at the schedule again: its next change of shift, or at once after an edit.
    "next_check_at" TIMESTAMPTZ(3) NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oncall_schedules_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "oncall_schedules_project_id_name_key" ON "oncall_schedules"("project_id", "name");
CREATE UNIQUE INDEX "oncall_schedules_calendar_token_sha256_key" ON "oncall_schedules"("calendar_token_sha256");
CREATE INDEX "oncall_schedules_next_check_at_idx" ON "oncall_schedules"("next_check_at");
ALTER TABLE "oncall_schedules" ADD CONSTRAINT "oncall_schedules_project_id_fkey" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A deleted rotation keeps its row and versions, for the shifts it gave before it was deleted.
CREATE TABLE "oncall_rotations" (
    "id" BIGSERIAL NOT NULL,
    "schedule_id" BIGINT NOT NULL,
    "name" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),

    CONSTRAINT "oncall_rotations_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "oncall_rotations_schedule_id_idx" ON "oncall_rotations"("schedule_id");
-- Rotation names are unique among a schedule's rotations that are not deleted.
CREATE UNIQUE INDEX "oncall_rotations_live_name_key" ON "oncall_rotations"("schedule_id", "name") WHERE "deleted_at" IS NULL;
ALTER TABLE "oncall_rotations" ADD CONSTRAINT "oncall_rotations_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "oncall_schedules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A rotation's rules from effective_from until effective_until (null: in force). Local times
-- (starts_at, ends_at, the active period) are without zone: they are read in time_zone.
CREATE TABLE "oncall_rotation_versions" (
    "id" BIGSERIAL NOT NULL,
    "rotation_id" BIGINT NOT NULL,
    "effective_from" TIMESTAMPTZ(3) NOT NULL,
    "effective_until" TIMESTAMPTZ(3),
    "time_zone" TEXT NOT NULL,
    "starts_at" TIMESTAMP(0) NOT NULL,
    "ends_at" TIMESTAMP(0),
    "shift_length" INTEGER NOT NULL,
    "shift_length_unit" TEXT NOT NULL,
    "active_period_start" TIME(0),
    "active_period_end" TIME(0),
    -- In turn: [{id, username}].
    "participants" JSONB NOT NULL,

    CONSTRAINT "oncall_rotation_versions_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "oncall_rotation_versions_in_force" CHECK ("effective_until" IS NULL OR "effective_until" > "effective_from"),
    CONSTRAINT "oncall_rotation_versions_shift_length" CHECK ("shift_length" > 0 AND "shift_length_unit" IN ('hours', 'days', 'weeks')),
    CONSTRAINT "oncall_rotation_versions_active_period" CHECK (("active_period_start" IS NULL) = ("active_period_end" IS NULL))
);

CREATE INDEX "oncall_rotation_versions_rotation_id_effective_from_idx" ON "oncall_rotation_versions"("rotation_id", "effective_from");
ALTER TABLE "oncall_rotation_versions" ADD CONSTRAINT "oncall_rotation_versions_rotation_id_fkey" FOREIGN KEY ("rotation_id") REFERENCES "oncall_rotations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A member removed from the project, noted on each rotation they left (who, when).
CREATE TABLE "oncall_participant_removals" (
    "id" BIGSERIAL NOT NULL,
    "rotation_id" BIGINT NOT NULL,
    "user_id" BIGINT NOT NULL,
    "username" TEXT NOT NULL,
    "removed_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "oncall_participant_removals_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "oncall_participant_removals_rotation_id_idx" ON "oncall_participant_removals"("rotation_id");
ALTER TABLE "oncall_participant_removals" ADD CONSTRAINT "oncall_participant_removals_rotation_id_fkey" FOREIGN KEY ("rotation_id") REFERENCES "oncall_rotations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A member on call in place of a rotation's (rotation_id) or the whole schedule's (null) from
-- starts_at to ends_at; the newest (highest id) wins where two overlap. Deleting one under way ends it.
CREATE TABLE "oncall_overrides" (
    "id" BIGSERIAL NOT NULL,
    "schedule_id" BIGINT NOT NULL,
    "rotation_id" BIGINT,
    "user_id" BIGINT NOT NULL,
    "username" TEXT NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "created_by_id" BIGINT,
    "created_by_username" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oncall_overrides_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "oncall_overrides_window" CHECK ("ends_at" > "starts_at")
);

CREATE INDEX "oncall_overrides_schedule_id_ends_at_idx" ON "oncall_overrides"("schedule_id", "ends_at");
ALTER TABLE "oncall_overrides" ADD CONSTRAINT "oncall_overrides_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "oncall_schedules"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "oncall_overrides" ADD CONSTRAINT "oncall_overrides_rotation_id_fkey" FOREIGN KEY ("rotation_id") REFERENCES "oncall_rotations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- On-call events written in the transaction that publishes a schedule's changes of who is on call,
-- published to oncall.events.v1 by the outbox relay (libs/shared/outbox), as incident events are.
CREATE TABLE "oncall_event_outbox" (
    "id" BIGSERIAL NOT NULL,
    "key" TEXT NOT NULL,
    "value" JSON,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "oncall_event_outbox_pkey" PRIMARY KEY ("id")
);
