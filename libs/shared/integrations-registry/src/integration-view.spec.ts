import { IntegrationSnapshot } from '@alert-ingestion/contracts';
import { IntegrationView } from './integration-view';

function snapshot(overrides: Partial<IntegrationSnapshot.IntegrationSnapshotValue> = {}): IntegrationSnapshot.IntegrationSnapshotValue {
  return {
    id: '1',
    project_id: '10',
    project_tier: 'premium',
    type: 'http',
    name: 'Prometheus',
    active: true,
    url_token: 'token-a',
    authorization_key_sha256: 'a'.repeat(64),
    payload_field_mapping: [],
    version: 1,
    updated_at: '2026-11-21T00:00:00.000Z',
    ...overrides,
  };
}

describe('IntegrationView', () => {
  it('finds an integration by id and by URL token', () => {
    const view = new IntegrationView();
    expect(view.upsert(snapshot())).toBe('upserted');
    expect(view.findById('1')?.name).toBe('Prometheus');
    expect(view.findByUrlToken('token-a')?.id).toBe('1');
    expect(view.findByUrlToken('token-b')).toBeUndefined();
  });

  it('drops the old URL token when a newer snapshot changes it', () => {
    const view = new IntegrationView();
    view.upsert(snapshot());
    view.upsert(snapshot({ url_token: 'token-b', version: 2 }));
    expect(view.findByUrlToken('token-a')).toBeUndefined();
    expect(view.findByUrlToken('token-b')?.version).toBe(2);
    expect(view.size).toBe(1);
  });

  it('ignores a stale snapshot and accepts the same version again', () => {
    const view = new IntegrationView();
    view.upsert(snapshot({ version: 3, active: false }));
    expect(view.upsert(snapshot({ version: 2, active: true, url_token: 'token-old' }))).toBe('stale');
    expect(view.findById('1')?.active).toBe(false);
    expect(view.findByUrlToken('token-old')).toBeUndefined();
    expect(view.upsert(snapshot({ version: 3, active: false, name: 'Renamed' }))).toBe('upserted');
    expect(view.findById('1')?.name).toBe('Renamed');
  });

  it('forgets a deleted integration by id and URL token', () => {
    const view = new IntegrationView();
    view.upsert(snapshot());
    view.upsert(snapshot({ id: '2', url_token: 'token-2' }));
    expect(view.delete('1')).toBe('deleted');
    expect(view.findById('1')).toBeUndefined();
    expect(view.findByUrlToken('token-a')).toBeUndefined();
    expect(view.findByUrlToken('token-2')?.id).toBe('2');
    expect(view.delete('1')).toBe('unchanged');
    expect(view.all().map((entry) => entry.id)).toEqual(['2']);
  });

  it('keeps a URL token that another integration now owns when the first one is deleted', () => {
    const view = new IntegrationView();
    view.upsert(snapshot({ id: '1', url_token: 'shared' }));
    view.upsert(snapshot({ id: '1', url_token: 'moved', version: 2 }));
    view.upsert(snapshot({ id: '2', url_token: 'shared' }));
    view.delete('1');
    expect(view.findByUrlToken('shared')?.id).toBe('2');
  });
});
