export * from './zoned-time';
export * from './rotation';
export * from './final-shifts';
export * from './on-call';
export * from './stored-schedule';
export * from './oncall-edit-plan';
export * from './oncall-views';
export * from './handoff-plan';
