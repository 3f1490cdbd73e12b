-- DropIndex: deliveries are pruned by one ranking over the integration index, which also sees their
-- age; the index on received_at alone served only a separate deletion by age, and cost an index
-- entry for every delivery recorded in the processor's batch transaction.
DROP INDEX "alert_deliveries_received_at_idx";
