export * from './oncall-rows';
export * from './oncall-schedules.repository';
export * from './oncall-handoffs.repository';
export * from './handoff-publisher-leadership';
