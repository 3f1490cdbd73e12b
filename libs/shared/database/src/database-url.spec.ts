import { databaseNameOf, maintenanceUrl, quoteIdentifier, redactUrl, withDatabaseName } from './database-url';

describe('database URLs', () => {
  const url = 'postgresql://app:s3cret@db.example:5433/alert_ingestion?sslmode=require';

  it('reads and replaces the database name, keeping everything else', () => {
    expect(databaseNameOf(url)).toBe('alert_ingestion');
    expect(withDatabaseName(url, 'other db')).toBe('postgresql://app:s3cret@db.example:5433/other%20db?sslmode=require');
    expect(databaseNameOf(withDatabaseName(url, 'other db'))).toBe('other db');
    expect(maintenanceUrl(url)).toBe('postgresql://app:s3cret@db.example:5433/postgres?sslmode=require');
  });

  it('refuses a URL without a database', () => {
    expect(() => databaseNameOf('postgresql://app@db.example:5433/')).toThrow('names no database');
  });

  it('hides the password in messages', () => {
    expect(redactUrl(url)).toBe('postgresql://app:***@db.example:5433/alert_ingestion?sslmode=require');
    expect(redactUrl('postgresql://postgres@127.0.0.1:5432/x')).toBe('postgresql://postgres@127.0.0.1:5432/x');
  });

  it('quotes identifiers, doubling embedded quotes', () => {
    expect(quoteIdentifier('a"b')).toBe('"a""b"');
  });
});
