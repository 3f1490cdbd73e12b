export * from './ensure-alertmanager';
export * from './alertmanager-process';
