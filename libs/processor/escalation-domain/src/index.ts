export * from './escalation-policy';
export * from './escalation-steps';
export * from './stored-escalation';
export * from './escalation-events';
export * from './escalation-claim';
export * from './contact-methods';
export * from './page-delivery';
export * from './webhook-address';
