import { isUniqueViolation, sqlState } from './sql-errors';

describe('sqlState', () => {
  it("reads node-postgres's SQLSTATE and nothing else", () => {
    expect(sqlState({ code: '40P01' })).toBe('40P01');
    expect(sqlState({ code: 'ECONNREFUSED' })).toBeUndefined();
    expect(sqlState(null)).toBeUndefined();
    expect(sqlState(new Error('no code'))).toBeUndefined();
  });
});

describe('isUniqueViolation', () => {
  const pgError = { code: '23505', constraint: 'alerts_open_fingerprint_key', message: 'duplicate key value violates unique constraint "alerts_open_fingerprint_key"' };
  const prismaError = { code: 'P2002', meta: { target: ['path'], constraint: 'projects_path_key' }, message: 'Unique constraint failed' };

  it('knows a unique violation from node-postgres and from Prisma', () => {
    expect(isUniqueViolation(pgError)).toBe(true);
    expect(isUniqueViolation(prismaError)).toBe(true);
    expect(isUniqueViolation({ code: '23503' })).toBe(false);
    expect(isUniqueViolation('23505')).toBe(false);
  });

  it('names the constraint when asked, from either', () => {
    expect(isUniqueViolation(pgError, 'alerts_open_fingerprint_key')).toBe(true);
    expect(isUniqueViolation(pgError, 'processed_raw_alerts_pkey')).toBe(false);
    expect(isUniqueViolation(prismaError, 'projects_path_key')).toBe(true);
    expect(isUniqueViolation(prismaError, 'alert_integrations_http_name_key')).toBe(false);
  });
});
