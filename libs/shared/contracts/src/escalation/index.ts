export * from './escalation-policy';
export * from './paging';
export * from './oncall-config';
