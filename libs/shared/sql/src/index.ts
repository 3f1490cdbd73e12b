export * from './sql-literal';
export * from './sql-query';
export * from './like-pattern';
export * from './sql-errors';
export * from './table-reclaim';
