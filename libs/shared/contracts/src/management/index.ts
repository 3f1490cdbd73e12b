// The management API's JSON shapes (CONTRACT.md "Management API"): plain types that import nothing
// outside libs/shared/contracts, so the services' DTOs and the web console share them.
export * from './user';
export * from './project';
export * from './integration';
