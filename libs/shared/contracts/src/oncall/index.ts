export * from './oncall-schedule';
