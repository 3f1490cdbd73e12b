-- CreateTable: silences (maintenance windows) of a project, owned by alert-processor (README.md
-- "Silences"). Matchers are kept as the API takes them; the processor reads the silences that have
-- not ended for the projects of each batch of alerts, by the (project_id, ends_at) index: a project
-- without silences costs one index probe, in the batch's existing round trip.
-- The creator is kept as the API shows it (id and username at creation): the processor reads
-- integration-config's users only through access control.
CREATE TABLE "silences" (
    "id" BIGSERIAL NOT NULL,
    "project_id" BIGINT NOT NULL,
    "matchers" JSONB NOT NULL,
    "starts_at" TIMESTAMPTZ(3) NOT NULL,
    "ends_at" TIMESTAMPTZ(3) NOT NULL,
    "comment" TEXT NOT NULL,
    "created_by_id" BIGINT,
    "created_by_username" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "silences_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "silences_project_id_ends_at_idx" ON "silences"("project_id", "ends_at");

-- An expired pending silence ends where it starts (both at the time it was expired).
ALTER TABLE "silences" ADD CONSTRAINT "silences_window" CHECK ("ends_at" >= "starts_at");

-- AlterTable: the silence that matched an alert at its last create, group or resolve (null: none).
-- The alerts API shows it while the silence is active.
ALTER TABLE "alerts" ADD COLUMN "silence_id" BIGINT;

-- AddForeignKey
ALTER TABLE "alerts" ADD CONSTRAINT "alerts_silence_id_fkey" FOREIGN KEY ("silence_id") REFERENCES "silences"("id") ON DELETE SET NULL ON UPDATE CASCADE;
