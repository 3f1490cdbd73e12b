export * from './sql-literal';
export * from './sql-query';
