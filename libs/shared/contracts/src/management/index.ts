// The management API's JSON shapes (CONTRACT.md "Management API"): the OpenAPI document's schemas
// (../http) under the services' names, and the constants the DTOs' decorators publish as enums and
// bounds. Nothing here imports from outside libs/shared/contracts, so the web console may use them.
export * from './user';
export * from './project';
export * from './integration';
