// The alerts query API's HTTP shapes (CONTRACT.md "Alerts query API", "deliveries"): the query and
// body DTOs the processor validates, and the answers as the OpenAPI documents describe them. Shared,
// because integration-config forwards the same routes and documents them alike.
export * from './alerts-query.dto';
export * from './alerts-responses.dto';
export * from './silences.dto';
export * from './alerts-routes.docs';
