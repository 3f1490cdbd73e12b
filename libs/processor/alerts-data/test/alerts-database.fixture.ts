import { createTestDatabase, TestDatabase } from '@alert-ingestion/testing';
import { AlertsDatabase, AlertsDatabaseOptions } from '../src';

/** A migrated database of its own and an AlertsDatabase on it, for the tests of one describe block. */
export interface AlertsDatabaseFixture {
  readonly database: TestDatabase;
  readonly alerts: AlertsDatabase;
}

/**
 * Registers the block's beforeAll (creates the database, opens the AlertsDatabase) and afterAll
 * (closes it, drops the database); the returned fixture's fields are set once beforeAll ran.
 */
export function alertsDatabaseFixture(options?: AlertsDatabaseOptions): AlertsDatabaseFixture {
  const fixture = {} as { database: TestDatabase; alerts: AlertsDatabase };
  beforeAll(async () => {
    fixture.database = await createTestDatabase();
    fixture.alerts = new AlertsDatabase(fixture.database.url, options);
  });
  afterAll(async () => {
    await fixture.alerts?.close();
    await fixture.database?.drop();
  });
  return fixture;
}
