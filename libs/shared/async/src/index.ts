export * from './within-time';
export * from './background-loop';
