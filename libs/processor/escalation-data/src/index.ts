export * from './escalation-rows';
export * from './paging.repository';
export * from './escalation-policies.repository';
export * from './escalations.repository';
