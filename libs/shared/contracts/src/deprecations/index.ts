// The deprecation catalogue's API shapes (CONTRACT.md "deprecations"): plain types and constants that
// import nothing, so libs/integration-config/deprecations and the web console share them.
export * from './deprecation-entry';
export * from './upgrade-report';
export * from './pipeline-finding';
