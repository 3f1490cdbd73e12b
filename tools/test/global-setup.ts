export default async function globalSetup(): Promise<void> {
  // Filled in by the foundation work: brings up PostgreSQL and Kafka for the run.
}
