import { SilenceMatcher } from '@alert-ingestion/contracts';
import {
  checkSilenceWindow,
  matcherHolds,
  parseSilenceMatchers,
  regexProblem,
  Silence,
  SilenceableAlert,
  silenceablePayload,
  silenceState,
  silencingSilence,
} from './silence-matchers';

const now = new Date('2026-11-25T12:00:00.000Z');
const HOUR = 3_600_000;

function alert(overrides: Partial<SilenceableAlert> = {}): SilenceableAlert {
  return {
    title: 'Disk full on db-1',
    description: null,
    severity: 'high',
    service: 'checkout',
    monitoring_tool: 'Prometheus',
    hosts: ['db-1', 'db-2'],
    fingerprint: 'disk-db-1',
    platform_environment_name: 'production',
    integration_id: '42',
    payload: { labels: { team: 'storage', replicas: 3, canary: false }, items: ['a', 'b'] },
    ...overrides,
  };
}

function silence(overrides: Partial<Silence> = {}): Silence {
  return {
    id: '1',
    project_id: '7',
    matchers: [{ field: 'service', operator: '=', value: 'checkout' }],
    starts_at: new Date(now.getTime() - HOUR),
    ends_at: new Date(now.getTime() + HOUR),
    comment: 'maintenance',
    ...overrides,
  };
}

describe('silence matchers (Alertmanager semantics)', () => {
  it.each<[SilenceMatcher, boolean]>([
    [{ field: 'title', operator: '=', value: 'Disk full on db-1' }, true],
    [{ field: 'title', operator: '=', value: 'disk full on db-1' }, false],
    [{ field: 'title', operator: '!=', value: 'CPU' }, true],
    [{ field: 'severity', operator: '=', value: 'high' }, true],
    [{ field: 'integration_id', operator: '=', value: '42' }, true],
    [{ field: 'fingerprint', operator: '=~', value: 'disk-.*' }, true],
    [{ field: 'platform_environment_name', operator: '!~', value: 'prod.*' }, false],
    [{ field: 'monitoring_tool', operator: '=~', value: 'Prom' }, false],
  ])('%j holds: %s', (matcher, expected) => {
    expect(matcherHolds(matcher, alert())).toBe(expected);
  });

  it('anchors regexes to the whole value, as Alertmanager does', () => {
    expect(matcherHolds({ field: 'title', operator: '=~', value: 'Disk' }, alert())).toBe(false);
    expect(matcherHolds({ field: 'title', operator: '=~', value: 'Disk.*' }, alert())).toBe(true);
    expect(matcherHolds({ field: 'title', operator: '=~', value: 'x|Disk full on db-1' }, alert())).toBe(true);
    // An alternation cannot escape the anchors.
    expect(matcherHolds({ field: 'title', operator: '=~', value: 'Disk|nothing' }, alert())).toBe(false);
    expect(matcherHolds({ field: 'title', operator: '!~', value: 'Disk' }, alert())).toBe(true);
  });

  it('treats a missing value as the empty string', () => {
    expect(matcherHolds({ field: 'description', operator: '=', value: '' }, alert())).toBe(true);
    expect(matcherHolds({ field: 'description', operator: '!=', value: '' }, alert())).toBe(false);
    expect(matcherHolds({ field: 'service', operator: '!=', value: '' }, alert())).toBe(true);
    expect(matcherHolds({ path: ['labels', 'missing'], operator: '=', value: '' }, alert())).toBe(true);
    expect(matcherHolds({ path: ['labels', 'missing'], operator: '=~', value: '.+' }, alert())).toBe(false);
  });

  it('matches hosts when any host matches, and negates over all of them', () => {
    expect(matcherHolds({ field: 'hosts', operator: '=', value: 'db-2' }, alert())).toBe(true);
    expect(matcherHolds({ field: 'hosts', operator: '=~', value: 'db-[0-9]' }, alert())).toBe(true);
    expect(matcherHolds({ field: 'hosts', operator: '!=', value: 'db-2' }, alert())).toBe(false);
    expect(matcherHolds({ field: 'hosts', operator: '!=', value: 'web-1' }, alert())).toBe(true);
    expect(matcherHolds({ field: 'hosts', operator: '=', value: '' }, alert({ hosts: [] }))).toBe(true);
    expect(matcherHolds({ field: 'hosts', operator: '=', value: '' }, alert({ hosts: null }))).toBe(true);
  });

  it('reads custom payload fields by path, other JSON values as their JSON text', () => {
    expect(matcherHolds({ path: ['labels', 'team'], operator: '=', value: 'storage' }, alert())).toBe(true);
    expect(matcherHolds({ path: ['labels', 'replicas'], operator: '=', value: '3' }, alert())).toBe(true);
    expect(matcherHolds({ path: ['labels', 'canary'], operator: '=', value: 'false' }, alert())).toBe(true);
    expect(matcherHolds({ path: ['items', 1], operator: '=', value: 'b' }, alert())).toBe(true);
    expect(matcherHolds({ path: ['items'], operator: '=', value: '["a","b"]' }, alert())).toBe(true);
    expect(matcherHolds({ path: ['items', '1'], operator: '=', value: 'b' }, alert())).toBe(false);
  });

  it('matches in time linear in the text for patterns that make a backtracking engine explode', () => {
    const started = Date.now();
    expect(matcherHolds({ field: 'title', operator: '=~', value: '(a+)+b' }, alert({ title: 'a'.repeat(5000) }))).toBe(false);
    expect(matcherHolds({ field: 'title', operator: '=~', value: '.*a.*a.*a.*b' }, alert({ title: 'a'.repeat(5000) }))).toBe(false);
    expect(Date.now() - started).toBeLessThan(2000);
  });
});

describe('silence states and the silence that covers an alert', () => {
  it('is pending before starts_at, active until ends_at, expired from ends_at on', () => {
    expect(silenceState(silence({ starts_at: new Date(now.getTime() + 1) }), now)).toBe('pending');
    expect(silenceState(silence({ starts_at: now }), now)).toBe('active');
    expect(silenceState(silence({ ends_at: now }), now)).toBe('expired');
  });

  it('needs every matcher to hold', () => {
    const both = silence({
      matchers: [
        { field: 'service', operator: '=', value: 'checkout' },
        { path: ['labels', 'team'], operator: '=', value: 'network' },
      ],
    });
    expect(silencingSilence([both], alert(), now)).toBeNull();
    expect(silencingSilence([both], alert({ payload: { labels: { team: 'network' } } }), now)).toEqual({ id: '1', comment: 'maintenance', ends_at: both.ends_at });
  });

  it('ignores pending and expired silences', () => {
    expect(silencingSilence([silence({ starts_at: new Date(now.getTime() + HOUR), ends_at: new Date(now.getTime() + 2 * HOUR) })], alert(), now)).toBeNull();
    expect(silencingSilence([silence({ ends_at: new Date(now.getTime() - 1) , starts_at: new Date(now.getTime() - HOUR) })], alert(), now)).toBeNull();
  });

  it('names the matching silence that ends last, the smallest id on a tie', () => {
    const later = new Date(now.getTime() + 5 * HOUR);
    const chosen = silencingSilence([silence({ id: '3' }), silence({ id: '12', ends_at: later }), silence({ id: '9', ends_at: later })], alert(), now);
    expect(chosen?.id).toBe('9');
  });
});

describe('silenceablePayload', () => {
  it('reads an arriving payload by the alert field names, with the integration it came through', () => {
    const payload = {
      title: 'Disk full on db-1',
      description: null,
      severity: 'high' as const,
      startedAt: now,
      endedAt: null,
      service: 'checkout',
      monitoringTool: 'Prometheus',
      hosts: ['db-1', 'db-2'],
      platformEnvironmentName: 'production',
      fingerprint: 'disk-db-1',
      payload: { labels: { team: 'storage', replicas: 3, canary: false }, items: ['a', 'b'] },
    };
    expect(silenceablePayload(payload, '42')).toEqual(alert());
    const matchers: SilenceMatcher[] = [
      { field: 'monitoring_tool', operator: '=', value: 'Prometheus' },
      { field: 'platform_environment_name', operator: '=', value: 'production' },
      { field: 'integration_id', operator: '=', value: '43' },
    ];
    expect(silencingSilence([silence({ matchers })], silenceablePayload(payload, '43'), now)?.id).toBe('1');
    expect(silencingSilence([silence({ matchers })], silenceablePayload(payload, '42'), now)).toBeNull();
  });
});

describe('parseSilenceMatchers', () => {
  it('accepts field and path matchers', () => {
    const parsed = parseSilenceMatchers([
      { field: 'hosts', operator: '=~', value: 'db-.*' },
      { path: ['labels', 'team', 0], operator: '!=', value: 'x' },
    ]);
    expect(parsed).toEqual({
      ok: true,
      value: [
        { field: 'hosts', operator: '=~', value: 'db-.*' },
        { path: ['labels', 'team', 0], operator: '!=', value: 'x' },
      ],
    });
  });

  it.each<[string, unknown, RegExp]>([
    ['no matcher', [], /at least one matcher/],
    ['not an array', { field: 'title' }, /at least one matcher/],
    ['too many', Array.from({ length: 33 }, () => ({ field: 'title', operator: '=', value: 'x' })), /at most 32/],
    ['an unknown field', [{ field: 'status', operator: '=', value: 'x' }], /field must be one of/],
    ['field and path', [{ field: 'title', path: ['a'], operator: '=', value: 'x' }], /either a field or a path/],
    ['neither', [{ operator: '=', value: 'x' }], /either a field or a path/],
    ['an unknown operator', [{ field: 'title', operator: '==', value: 'x' }], /operator must be one of/],
    ['a value that is no string', [{ field: 'title', operator: '=', value: 3 }], /value must be a string/],
    ['a long value', [{ field: 'title', operator: '=', value: 'x'.repeat(1025) }], /at most 1024/],
    ['an invalid regex', [{ field: 'title', operator: '=~', value: '(a' }], /matchers\[0\]: This is not a valid regular expression \(RE2 syntax\): a \( is not closed\.$/],
    ['a backreference', [{ field: 'title', operator: '=~', value: '(a)\\1' }], /not a valid regular expression/],
    ['a lookahead', [{ field: 'title', operator: '!~', value: '(?=a)a' }], /not a valid regular expression/],
    ['an empty path', [{ path: [], operator: '=', value: 'x' }], /path must be a non-empty array/],
    ['a bad path step', [{ path: ['a', -1], operator: '=', value: 'x' }], /path steps are/],
    ['an unknown property', [{ field: 'title', operator: '=', value: 'x', isRegex: true }], /unknown property "isRegex"/],
  ])('refuses %s', (_, input, message) => {
    const parsed = parseSilenceMatchers(input);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.message).toMatch(message);
  });

  it('names the field in error as a client writes it', () => {
    expect(parseSilenceMatchers([{ field: 'title', operator: '=', value: 'x' }, { field: 'title', operator: '=~', value: '(a' }])).toEqual({
      ok: false,
      message: 'matchers[1]: This is not a valid regular expression (RE2 syntax): a ( is not closed.',
      field: 'matchers[1].value',
    });
    expect(parseSilenceMatchers([{ field: 'status', operator: '=', value: 'x' }])).toMatchObject({ field: 'matchers[0].field' });
    expect(parseSilenceMatchers([{ field: 'title', operator: '==', value: 'x' }])).toMatchObject({ field: 'matchers[0].operator' });
    expect(parseSilenceMatchers([])).toMatchObject({ field: 'matchers' });
  });

  it.each([
    ['(a', 'a ( is not closed.'],
    ['a)', 'a ) closes nothing.'],
    ['[a', 'a [ is not closed.'],
    ['*a', '`*` has nothing before it to repeat.'],
    ['(a)\\1', '`\\1` is not an escape RE2 knows (RE2 has no backreferences).'],
    ['x{2,1}', 'the repeat count `{2,1}` is not valid (at most 1000, the smaller first).'],
    ['a\\', 'it ends with a \\ that escapes nothing.'],
  ])('says in plain words why the regex %s is not RE2', (pattern, problem) => {
    expect(regexProblem(pattern)).toBe(problem);
  });

  it.each<[string, unknown[]]>([
    ['an empty value', [{ field: 'service', operator: '=', value: '' }]],
    ['a regex that matches empty', [{ field: 'title', operator: '=~', value: '.*' }]],
    ['a negated value', [{ field: 'title', operator: '!=', value: 'x' }]],
    ['only matchers that match empty', [{ field: 'service', operator: '=', value: '' }, { path: ['labels', 'team'], operator: '!~', value: 'a+' }]],
  ])('refuses matchers that all match the empty value (%s): they would silence every alert', (_, input) => {
    expect(parseSilenceMatchers(input)).toEqual({ ok: false, message: expect.stringMatching(/must not match the empty value/), field: 'matchers' });
  });

  it('accepts service="" beside a matcher that does not match the empty value', () => {
    expect(parseSilenceMatchers([{ field: 'service', operator: '=', value: '' }, { field: 'title', operator: '=~', value: 'disk.+' }]).ok).toBe(true);
    expect(parseSilenceMatchers([{ field: 'service', operator: '!=', value: '' }]).ok).toBe(true);
  });

  it('takes an invalid pattern as a plain value under = and !=', () => {
    expect(parseSilenceMatchers([{ field: 'title', operator: '=', value: '(a' }]).ok).toBe(true);
  });
});

describe('checkSilenceWindow', () => {
  it('needs ends_at after starts_at', () => {
    expect(checkSilenceWindow(now, now)).toEqual({ ok: false, message: 'ends_at must be after starts_at.', field: 'ends_at' });
    expect(checkSilenceWindow(now, new Date(now.getTime() + 1)).ok).toBe(true);
    expect(checkSilenceWindow(new Date('x'), now).ok).toBe(false);
  });
});
