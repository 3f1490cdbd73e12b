import { IntegrationRuleViolation } from './integration-rule-violation';
import { violationOf } from './integration-rule-violation.testing';
import {
  DEFAULT_HTTP_INTEGRATION_NAME,
  EXTERNAL_LINK_INTEGRATION_NAME,
  IntegrationSettings,
  planIntegrationCreate,
  planIntegrationUpdate,
  ProjectIntegration,
  StoredIntegration,
  validateApiUrl,
} from './integration-rules';

const sample = JSON.stringify({ summary: 'CPU', at: '2026-11-21T10:00:00Z', end: null });
const mapping = [{ field_name: 'title', path: ['summary'], type: 'string' }];
const http = (id: string, name: string, active = false): ProjectIntegration => ({ id, type: 'http', name, active });
const link = (active: boolean): ProjectIntegration => ({ id: '99', type: 'external_link', name: EXTERNAL_LINK_INTEGRATION_NAME, active });

function stored(overrides: Partial<StoredIntegration> = {}): StoredIntegration {
  return { id: '1', type: 'http', name: 'Prometheus', active: false, sample_payload: null, payload_field_mapping: [], api_url: null, rate_limit_per_minute: null, heartbeat_interval_minutes: null, ...overrides };
}

describe('creating an integration on the Free tier (spec 1.4, 2.1)', () => {
  it('gives the single HTTP Endpoint the default name, ignoring a given one', () => {
    const settings = planIntegrationCreate('free', { type: 'http', name: 'Mine', active: true }, []);
    expect(settings).toEqual<IntegrationSettings>({
      type: 'http',
      name: DEFAULT_HTTP_INTEGRATION_NAME,
      active: true,
      sample_payload: null,
      payload_field_mapping: [],
      api_url: null,
      rate_limit_per_minute: null,
      heartbeat_interval_minutes: null,
    });
  });

  it('defaults to inactive: the Active toggle enables it (spec 1.4)', () => {
    expect(planIntegrationCreate('free', { type: 'http' }, []).active).toBe(false);
  });

  it('refuses a second HTTP Endpoint with 403', () => {
    const error = violationOf(() => planIntegrationCreate('free', { type: 'http' }, [http('1', DEFAULT_HTTP_INTEGRATION_NAME)]));
    expect(error).toMatchObject({ kind: 'forbidden', code: 'free_tier_limit' });
  });

  it('refuses a sample payload, a mapping or an external link with 403', () => {
    expect(violationOf(() => planIntegrationCreate('free', { type: 'http', sample_payload: sample }, [])).kind).toBe('forbidden');
    expect(violationOf(() => planIntegrationCreate('free', { type: 'http', payload_field_mapping: mapping }, [])).kind).toBe('forbidden');
    expect(violationOf(() => planIntegrationCreate('free', { type: 'external_link', api_url: 'https://ops.example' }, [])).kind).toBe('forbidden');
  });

  it('checks the tier before the input: an invalid sample payload on Free is a 403', () => {
    expect(violationOf(() => planIntegrationCreate('free', { type: 'http', sample_payload: '{' }, [])).kind).toBe('forbidden');
  });
});

describe('creating an integration on the Premium tier', () => {
  it('creates several uniquely named HTTP Endpoints', () => {
    const settings = planIntegrationCreate('premium', { type: 'http', name: '  Grafana ', active: true }, [http('1', 'Prometheus', true)]);
    expect(settings.name).toBe('Grafana');
  });

  it('needs a name and refuses a taken one with 409', () => {
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'http' }, []))).toMatchObject({ kind: 'invalid', code: 'invalid_name' });
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'http', name: ' ' }, [])).kind).toBe('invalid');
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'http', name: 'x'.repeat(256) }, [])).kind).toBe('invalid');
    const taken = violationOf(() => planIntegrationCreate('premium', { type: 'http', name: 'Prometheus' }, [http('1', 'Prometheus')]));
    expect(taken).toMatchObject({ kind: 'conflict', code: 'name_taken' });
  });

  it('takes an optional sample payload and a mapping validated against it', () => {
    const settings = planIntegrationCreate('premium', { type: 'http', name: 'A', sample_payload: sample, payload_field_mapping: mapping }, []);
    expect(settings.sample_payload).toBe(sample);
    expect(settings.payload_field_mapping).toEqual(mapping);
  });

  it('refuses an invalid sample payload, a mapping without one, and api_url with 400', () => {
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'http', name: 'A', sample_payload: '{"a":' }, [])).code).toBe('invalid_sample_payload');
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'http', name: 'A', payload_field_mapping: mapping }, [])).code).toBe(
      'invalid_payload_field_mapping',
    );
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'http', name: 'A', api_url: 'https://x' }, [])).kind).toBe('invalid');
  });

  it('creates one external link integration with an http(s) api_url', () => {
    const settings = planIntegrationCreate('premium', { type: 'external_link', api_url: 'https://ops.example/alerts', active: true }, [http('1', 'A')]);
    expect(settings).toMatchObject({ type: 'external_link', name: EXTERNAL_LINK_INTEGRATION_NAME, active: true, api_url: 'https://ops.example/alerts' });
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'external_link', api_url: 'https://x' }, [link(false)]))).toMatchObject({
      kind: 'conflict',
      code: 'external_link_exists',
    });
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'external_link' }, [])).code).toBe('invalid_api_url');
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'external_link', api_url: 'ftp://x' }, [])).code).toBe('invalid_api_url');
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'external_link', api_url: 'https://x', sample_payload: sample }, [])).kind).toBe(
      'invalid',
    );
  });

  it('refuses an active external link while another integration is active, naming it (spec 2.3 rule 1)', () => {
    const error = violationOf(() => planIntegrationCreate('premium', { type: 'external_link', api_url: 'https://x', active: true }, [http('5', 'Prometheus', true)]));
    expect(error.kind).toBe('conflict');
    expect(error.message).toContain('"Prometheus" (id 5)');
    expect(planIntegrationCreate('premium', { type: 'external_link', api_url: 'https://x', active: false }, [http('5', 'Prometheus', true)]).active).toBe(false);
  });

  it('refuses an active HTTP Endpoint while the external link is active', () => {
    const error = violationOf(() => planIntegrationCreate('premium', { type: 'http', name: 'B', active: true }, [link(true)]));
    expect(error.kind).toBe('conflict');
    expect(error.message).toContain('external link integration');
    expect(planIntegrationCreate('premium', { type: 'http', name: 'B', active: false }, [link(true)]).active).toBe(false);
  });
});

describe('updating an integration', () => {
  it('changes name and active on Premium, keeping other settings', () => {
    const current = stored({ sample_payload: sample, payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }] });
    const next = planIntegrationUpdate('premium', current, { name: 'Renamed', active: true }, []);
    expect(next).toMatchObject({ name: 'Renamed', active: true, sample_payload: sample });
    expect(next.payload_field_mapping).toHaveLength(1);
  });

  it('refuses a name another HTTP Endpoint has, but not its own', () => {
    expect(violationOf(() => planIntegrationUpdate('premium', stored(), { name: 'Other' }, [http('2', 'Other')])).kind).toBe('conflict');
    expect(planIntegrationUpdate('premium', stored(), { name: 'Prometheus' }, [http('2', 'Other')]).name).toBe('Prometheus');
  });

  it('clears the mapping when the sample payload changes (spec 2.1) unless a new mapping comes with it', () => {
    const current = stored({ sample_payload: sample, payload_field_mapping: [{ field_name: 'title', path: ['summary'], type: 'string' }] });
    const changed = JSON.stringify({ message: 'x', at: '2026-11-21T10:00:00Z' });
    expect(planIntegrationUpdate('premium', current, { sample_payload: changed }, []).payload_field_mapping).toEqual([]);
    expect(planIntegrationUpdate('premium', current, { sample_payload: sample }, []).payload_field_mapping).toHaveLength(1);
    const remapped = planIntegrationUpdate('premium', current, { sample_payload: changed, payload_field_mapping: [{ field_name: 'title', path: ['message'], type: 'string' }] }, []);
    expect(remapped.payload_field_mapping).toEqual([{ field_name: 'title', path: ['message'], type: 'string' }]);
    // The new mapping is checked against the new sample payload, not the old one.
    expect(violationOf(() => planIntegrationUpdate('premium', current, { sample_payload: changed, payload_field_mapping: mapping }, [])).code).toBe(
      'invalid_payload_field_mapping',
    );
    const cleared = planIntegrationUpdate('premium', current, { sample_payload: null }, []);
    expect(cleared).toMatchObject({ sample_payload: null, payload_field_mapping: [] });
  });

  it('validates a new mapping against the stored sample payload', () => {
    const current = stored({ sample_payload: sample });
    expect(planIntegrationUpdate('premium', current, { payload_field_mapping: [{ field_name: 'end_time', path: ['end'], type: 'datetime' }] }, []).payload_field_mapping).toHaveLength(1);
    expect(violationOf(() => planIntegrationUpdate('premium', current, { payload_field_mapping: [{ field_name: 'title', path: ['nope'], type: 'string' }] }, [])).kind).toBe(
      'invalid',
    );
  });

  it('refuses a sample payload or mapping on Free with 403, but lets them be cleared and ignores a name', () => {
    expect(violationOf(() => planIntegrationUpdate('free', stored(), { sample_payload: sample }, [])).kind).toBe('forbidden');
    expect(violationOf(() => planIntegrationUpdate('free', stored(), { payload_field_mapping: mapping }, [])).kind).toBe('forbidden');
    const cleared = planIntegrationUpdate('free', stored({ sample_payload: sample }), { sample_payload: null, payload_field_mapping: [] }, []);
    expect(cleared.sample_payload).toBeNull();
    expect(planIntegrationUpdate('free', stored(), { name: 'x', active: true }, []).name).toBe('Prometheus');
  });

  it('enforces the external link rule in both directions', () => {
    expect(violationOf(() => planIntegrationUpdate('premium', stored(), { active: true }, [link(true)])).kind).toBe('conflict');
    const current = stored({ id: '99', type: 'external_link', name: EXTERNAL_LINK_INTEGRATION_NAME, api_url: 'https://x/' });
    expect(violationOf(() => planIntegrationUpdate('premium', current, { active: true }, [http('1', 'A', true)])).kind).toBe('conflict');
    expect(planIntegrationUpdate('premium', current, { active: true, api_url: 'http://ops.example' }, [http('1', 'A')])).toMatchObject({
      active: true,
      api_url: 'http://ops.example/',
    });
    expect(violationOf(() => planIntegrationUpdate('premium', current, { api_url: 'javascript:alert(1)' }, [])).code).toBe('invalid_api_url');
  });

  it('lets an external link only be disabled after a downgrade to Free', () => {
    const current = stored({ id: '99', type: 'external_link', name: EXTERNAL_LINK_INTEGRATION_NAME, api_url: 'https://x/', active: true });
    expect(planIntegrationUpdate('free', current, { active: false }, []).active).toBe(false);
    expect(violationOf(() => planIntegrationUpdate('free', current, { api_url: 'https://y' }, [])).kind).toBe('forbidden');
  });
});

describe('validateApiUrl', () => {
  it('normalises http(s) URLs and refuses others', () => {
    expect(validateApiUrl(' https://ops.example/alerts ')).toBe('https://ops.example/alerts');
    expect(() => validateApiUrl('not a url')).toThrow(IntegrationRuleViolation);
    expect(() => validateApiUrl(42)).toThrow(IntegrationRuleViolation);
  });
});

describe("an HTTP Endpoint's own rate limit", () => {
  it('is taken on create and update, kept when not given, and cleared by null', () => {
    expect(planIntegrationCreate('free', { type: 'http', rate_limit_per_minute: 600 }, []).rate_limit_per_minute).toBe(600);
    expect(planIntegrationCreate('premium', { type: 'http', name: 'P' }, []).rate_limit_per_minute).toBeNull();
    const current = stored({ rate_limit_per_minute: 120 });
    expect(planIntegrationUpdate('free', current, { active: true }, []).rate_limit_per_minute).toBe(120);
    expect(planIntegrationUpdate('free', current, { rate_limit_per_minute: 30 }, []).rate_limit_per_minute).toBe(30);
    expect(planIntegrationUpdate('free', current, { rate_limit_per_minute: null }, []).rate_limit_per_minute).toBeNull();
  });

  it('refuses a limit that is no whole number of at least 1, and any limit on the external link', () => {
    for (const limit of [0, -5, 1.5, 10_000_001]) {
      expect(violationOf(() => planIntegrationCreate('free', { type: 'http', rate_limit_per_minute: limit }, []))).toMatchObject({ kind: 'invalid', code: 'invalid_rate_limit' });
    }
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'external_link', api_url: 'https://ops.example', rate_limit_per_minute: 5 }, []))).toMatchObject({
      kind: 'invalid',
      code: 'not_applicable',
    });
  });
});

describe('the heartbeat interval (HTTP Endpoint)', () => {
  it('is off unless set, and kept, changed or turned off by an update', () => {
    expect(planIntegrationCreate('free', { type: 'http' }, []).heartbeat_interval_minutes).toBeNull();
    expect(planIntegrationCreate('free', { type: 'http', heartbeat_interval_minutes: 5 }, []).heartbeat_interval_minutes).toBe(5);
    const current = stored({ heartbeat_interval_minutes: 10 });
    expect(planIntegrationUpdate('free', current, { active: true }, []).heartbeat_interval_minutes).toBe(10);
    expect(planIntegrationUpdate('free', current, { heartbeat_interval_minutes: 1440 }, []).heartbeat_interval_minutes).toBe(1440);
    expect(planIntegrationUpdate('free', current, { heartbeat_interval_minutes: null }, []).heartbeat_interval_minutes).toBeNull();
  });

  it('is a whole number of minutes from 1 to 1440, else 400', () => {
    for (const minutes of [0, -1, 1441, 1.5, Number.NaN]) {
      expect(violationOf(() => planIntegrationCreate('free', { type: 'http', heartbeat_interval_minutes: minutes }, []))).toMatchObject({
        kind: 'invalid',
        code: 'invalid_heartbeat_interval',
      });
    }
  });

  it('does not apply to the external link, which receives nothing', () => {
    expect(violationOf(() => planIntegrationCreate('premium', { type: 'external_link', api_url: 'https://ops.example', heartbeat_interval_minutes: 5 }, []))).toMatchObject({
      kind: 'invalid',
      code: 'not_applicable',
    });
  });
});
