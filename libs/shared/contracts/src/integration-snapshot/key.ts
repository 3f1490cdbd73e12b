/** Key of an integration snapshot: the integration id. Compaction keeps the latest per key. */
export type IntegrationSnapshotKey = string;
