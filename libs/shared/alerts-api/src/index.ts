// The alerts API (CONTRACT.md "Alerts query API", "deliveries"; docs/api-guide.md "Silences"): its route table
// (ALERTS_API), from which alert-processor's handlers take their route, access check and OpenAPI
// description and which integration-config forwards and documents; the query and body DTOs the
// processor validates, and the answers as the OpenAPI documents describe them.
export * from './alerts-query.dto';
export * from './alerts-responses.dto';
export * from './silences.dto';
export * from './incidents.dto';
export * from './activity.dto';
export * from './alert-workflow.dto';
export * from './alerts-api.routes';
export * from './alerts-api-route.decorator';
export * from './alerts-api-forwarding';
export * from './forwarded-alerts-api.controller';
export * from './alert-notifications.dto';
export * from './oncall.dto';
export * from './escalation.dto';
