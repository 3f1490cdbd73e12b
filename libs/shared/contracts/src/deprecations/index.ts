// The deprecation catalogue's API shapes (CONTRACT.md "deprecations"): the OpenAPI document's schemas
// (../http) under the catalogue's names, and the constants its decorators publish as enums. Nothing
// here imports from outside libs/shared/contracts, so the web console may use them.
export * from './deprecation-entry';
export * from './upgrade-report';
export * from './pipeline-finding';
