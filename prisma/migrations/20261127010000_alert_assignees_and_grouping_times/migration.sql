-- Assignees of an alert: project members (developer+), ids for the "assigned to" filter (GIN:
-- `assignee_ids @> ARRAY[id]`) and their usernames in the same order, which never change, so the
-- alert, its events and the list show them without a lookup.
ALTER TABLE "alerts" ADD COLUMN "assignee_ids" BIGINT[] NOT NULL DEFAULT ARRAY[]::BIGINT[],
ADD COLUMN "assignee_usernames" TEXT[] NOT NULL DEFAULT ARRAY[]::TEXT[],
-- The first and the latest payload grouped into the alert (null: none yet): the timeline's one
-- "events grouped" entry is derived from them and `events`, so a grouped payload writes no row.
ADD COLUMN "first_grouped_at" TIMESTAMPTZ(3),
ADD COLUMN "last_grouped_at" TIMESTAMPTZ(3);

CREATE INDEX "alerts_assignee_ids_idx" ON "alerts" USING GIN ("assignee_ids");
