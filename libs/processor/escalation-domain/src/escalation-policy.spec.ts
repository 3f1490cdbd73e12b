import { checkPolicy, describeRule, EscalationPolicy, loopMinutes, planPolicyEdit, PolicyDirectory, ruleViews, webhookUrlProblem, withCurrentNames } from './escalation-policy';
import { conditionHolds, nextPagingStep, stepAfter, stepDueAt } from './escalation-steps';

const directory: PolicyDirectory = { schedules: new Map([['3', 'Primary']]), members: new Map([['7', 'lead']]) };
const rules = [
  { after_minutes: 0, condition: 'not_acknowledged', targets: [{ type: 'schedule', schedule_id: 3 }] },
  { after_minutes: 60, condition: 'not_resolved', targets: [{ type: 'user', user_id: 7 }, { type: 'webhook', url: 'https://chat.example.com/hook' }] },
];

describe('escalation policies', () => {
  it('checks a policy and names its targets', () => {
    const checked = checkPolicy({ rules, repeat: 2 }, directory);
    expect(checked).toEqual({
      policy: {
        repeat: 2,
        rules: [
          { afterMinutes: 0, condition: 'not_acknowledged', targets: [{ type: 'schedule', scheduleId: '3', name: 'Primary' }] },
          { afterMinutes: 60, condition: 'not_resolved', targets: [{ type: 'user', userId: '7', username: 'lead' }, { type: 'webhook', url: 'https://chat.example.com/hook' }] },
        ],
      },
    });
  });

  it.each(([
    [{ rules: [] }, 'rules'],
    [{ rules: Array.from({ length: 11 }, () => rules[0]) }, 'rules'],
    [{ rules, repeat: 10 }, 'repeat'],
    [{ rules: [{ ...rules[0], after_minutes: 1441 }] }, 'rules[0].after_minutes'],
    [{ rules: [{ ...rules[0], after_minutes: 1.5 }] }, 'rules[0].after_minutes'],
    [{ rules: [rules[1], rules[0]] }, 'rules[1].after_minutes'],
    [{ rules: [{ ...rules[0], condition: 'not_seen' }] }, 'rules[0].condition'],
    [{ rules: [{ ...rules[0], targets: [] }] }, 'rules[0].targets'],
    [{ rules: [{ ...rules[0], targets: [{ type: 'schedule', schedule_id: 4 }] }] }, 'rules[0].targets[0].schedule_id'],
    [{ rules: [{ ...rules[0], targets: [{ type: 'user', user_id: 8 }] }] }, 'rules[0].targets[0].user_id'],
    [{ rules: [{ ...rules[0], targets: [{ type: 'webhook', url: 'ftp://example.com' }] }] }, 'rules[0].targets[0].url'],
    [{ rules: [{ ...rules[0], targets: [{ type: 'sms' }] }] }, 'rules[0].targets[0].type'],
    [{ rules: [{ ...rules[0], targets: [{ type: 'user', user_id: 7 }, { type: 'user', user_id: '7' }] }] }, 'rules[0].targets[1]'],
  ] as const).map(([request, field], index) => [field, index, request] as const))('refuses what is wrong at %s (case %i)', (field, _index, request) => {
    const checked = checkPolicy(request as never, directory);
    expect(checked).toMatchObject({ refused: { kind: 'invalid', code: 'validation_failed', field } });
  });

  it('takes a webhook URL without credentials only', () => {
    expect(webhookUrlProblem('https://hooks.example.com/a?b=c')).toBeNull();
    expect(webhookUrlProblem('https://user:secret@hooks.example.com/')).toMatch(/credentials/);
    expect(webhookUrlProblem('javascript:alert(1)')).toMatch(/http/);
    expect(webhookUrlProblem('x'.repeat(3000))).toMatch(/2048/);
  });

  it('says a rule in words, as the console previews it', () => {
    const { policy } = checkPolicy({ rules: [...rules, { after_minutes: 5, condition: 'not_acknowledged', targets: [{ type: 'schedule', schedule_id: 3 }] }].sort((a, b) => a.after_minutes - b.after_minutes) }, directory) as { policy: EscalationPolicy };
    expect(policy.rules.map((rule) => describeRule(rule))).toEqual([
      'at once, if not acknowledged, page whoever is on call in Primary',
      'after 5 min, if not acknowledged, page whoever is on call in Primary',
      'after 60 min, if not resolved, page @lead and the webhook https://chat.example.com/hook',
    ]);
    expect(ruleViews(policy, (id) => id !== '3')[0]).toMatchObject({
      targets: [{ type: 'schedule', schedule_id: 3, schedule_name: null, user_id: null, username: null, url: null }],
      description: 'at once, if not acknowledged, page whoever is on call in Primary (deleted)',
    });
  });

  it('shows the names targets have now', () => {
    const { policy } = checkPolicy({ rules }, directory) as { policy: EscalationPolicy };
    const renamed = withCurrentNames(policy, { schedules: new Map([['3', 'Front line']]), members: new Map() });
    expect(renamed.rules.map((rule) => describeRule(rule))).toEqual([
      'at once, if not acknowledged, page whoever is on call in Front line',
      'after 60 min, if not resolved, page @lead and the webhook https://chat.example.com/hook',
    ]);
  });
});

describe('escalation steps', () => {
  const { policy } = checkPolicy({ rules, repeat: 1 }, directory) as { policy: EscalationPolicy };
  const clock = { minuteMs: 60_000 };

  it('loops the last rule plus a pause, so that even rules all at 0 minutes repeat every five minutes', () => {
    expect(loopMinutes(policy)).toBe(65);
    expect(loopMinutes({ rules: [{ afterMinutes: 0, condition: 'not_acknowledged', targets: [] }], repeat: 9 })).toBe(5);
  });

  it('walks rule by rule, then loop by loop, and stops after the last repeat', () => {
    const steps = [];
    for (let step: ReturnType<typeof stepAfter> = { loop: 0, rule: 0 }; step; step = stepAfter(policy, step)) steps.push([step.loop, step.rule, stepDueAt(policy, 0, step, clock) / 60_000]);
    expect(steps).toEqual([
      [0, 0, 0],
      [0, 1, 60],
      [1, 0, 65],
      [1, 1, 125],
    ]);
  });

  it('pages "not acknowledged" rules while triggered, "not resolved" ones until resolved', () => {
    expect([conditionHolds('not_acknowledged', 'triggered'), conditionHolds('not_acknowledged', 'acknowledged')]).toEqual([true, false]);
    expect([conditionHolds('not_resolved', 'acknowledged'), conditionHolds('not_resolved', 'resolved'), conditionHolds('not_resolved', 'ignored')]).toEqual([true, false, false]);
    expect(nextPagingStep(policy, { loop: 0, rule: 0 }, 'acknowledged')).toEqual({ loop: 0, rule: 1 });
    expect(nextPagingStep(policy, { loop: 1, rule: 0 }, 'resolved')).toBeNull();
  });
});

describe('policy edits', () => {
  const state = { stored: undefined, directory, knownUrls: new Set<string>() };

  it('gives each webhook URL named for the first time a secret, and changes nothing for the same policy again', () => {
    const first = planPolicyEdit(state, { kind: 'put', request: { rules }, secrets: ['s1', 's2'] });
    expect(first).toMatchObject({ changes: { secrets: [{ url: 'https://chat.example.com/hook', secret: 's1' }] } });
    const stored = { policy: (first as { changes: { policy: EscalationPolicy } }).changes.policy, createdAt: 0, updatedAt: 0 };
    const again = planPolicyEdit({ ...state, stored, knownUrls: new Set(['https://chat.example.com/hook']) }, { kind: 'put', request: { rules }, secrets: ['s3'] });
    expect(again).toEqual({ changes: null, events: [] });
  });

  it('deletes and resets only what there is', () => {
    expect(planPolicyEdit(state, { kind: 'delete' })).toMatchObject({ refused: { kind: 'not_found' } });
    const { policy } = checkPolicy({ rules }, directory) as { policy: EscalationPolicy };
    const stored = { ...state, stored: { policy, createdAt: 0, updatedAt: 0 } };
    expect(planPolicyEdit(stored, { kind: 'reset_secret', url: 'https://chat.example.com/hook', secret: 'new' })).toMatchObject({ changes: { secrets: [{ secret: 'new' }] } });
    expect(planPolicyEdit(stored, { kind: 'reset_secret', url: 'https://other.example.com/', secret: 'new' })).toMatchObject({ refused: { field: 'url' } });
  });
});
