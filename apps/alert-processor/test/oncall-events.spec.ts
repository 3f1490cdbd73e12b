import { OncallEvent, OncallOverrideView, OncallRotationView, OncallScheduleView, Topic } from '@alert-ingestion/contracts';
import { ServiceProcess, ServiceStack, StackProject, testKafka, TopicCollector } from '@alert-ingestion/testing';
import { logLevel } from 'kafkajs';
import { setTimeout as sleep } from 'node:timers/promises';
import { StackMember as Member, stackMembers } from './stack-members';


/** How often each processor's handoff publisher looks (ONCALL_HANDOFF_CHECK_MS), for this spec. */
const CHECK_MS = 200;

/**
 * `oncall.shift_started` through the real stack with two processors (docs/api-guide.md "On-call
 * events"): every change of who is on call (a rotation coming into force, an override starting and
 * ending) is published once on oncall.events.v1, keyed by schedule and instant, while processors
 * compete for the publisher's lead, one is killed and another restarts.
 */
describe('on-call events (two processors, real PostgreSQL and Kafka)', () => {
  let stack: ServiceStack;
  let second: ServiceProcess;
  let project: StackProject;
  let events: TopicCollector<OncallEvent.OncallEventValue>;
  let members: Record<'maintainer' | 'ada' | 'bob' | 'cy', Member>;

  /** A maintainer's call to a processor's API (the second one while the first is down), whose answer must be a success. */
  const call = async <T>(method: string, path: string, body?: unknown, processor = second): Promise<T> => {
    const response = await fetch(`${processor.url}/api/v4/projects/${project.id}${path}`, {
      method,
      headers: { Authorization: `Bearer ${members.maintainer.token}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    expect([method, path, response.status]).toEqual([method, path, { POST: 201, DELETE: 204 }[method] ?? 200]);
    return (text === '' ? undefined : JSON.parse(text)) as T;
  };

  const scheduleEvents = (scheduleId: number) => events.received.filter((event) => event.value.schedule.id === scheduleId);

  /** An override of `user` from the next whole second after `inMs` for `forMs`, as whole-second instants. */
  const override = (scheduleId: number, rotation: OncallRotationView, user: Member, inMs: number, forMs: number) => {
    const start = Math.ceil((Date.now() + inMs) / 1000) * 1000;
    return call<OncallOverrideView>('POST', `/oncall_schedules/${scheduleId}/overrides`, {
      user_id: user.id,
      rotation_id: rotation.id,
      starts_at: new Date(start).toISOString(),
      ends_at: new Date(start + forMs).toISOString(),
    });
  };

  beforeAll(async () => {
    stack = await ServiceStack.start({ processor: { ONCALL_HANDOFF_CHECK_MS: String(CHECK_MS) } });
    second = await stack.startProcessor();
    events = await TopicCollector.published(testKafka({ logLevel: logLevel.NOTHING }), stack.topics.prefix, Topic.OncallEvents);
    project = await stack.createProject('premium', { pathPrefix: 'oncall-events' });
    members = await stackMembers(stack, project.id, { maintainer: 'maintainer', ada: 'developer', bob: 'developer', cy: 'developer' });
  }, 240_000);

  afterAll(async () => {
    await events?.stop();
    await stack?.stop();
  }, 60_000);

  it('publishes each change of who is on call once, keyed by schedule and instant, across two processors, a kill and a restart', async () => {
    const schedule = await call<OncallScheduleView>('POST', '/oncall_schedules', { name: 'Events', time_zone: 'UTC' });
    const yesterday = Temporal.Now.plainDateISO('UTC').subtract({ days: 1 });
    const rotation = await call<OncallRotationView>('POST', `/oncall_schedules/${schedule.id}/rotations`, {
      name: 'Days',
      starts_at: `${yesterday}T00:00`,
      shift_length: 1,
      shift_length_unit: 'days',
      participant_ids: [members.ada.id, members.bob.id],
    });
    // Today is the rotation's second shift: bob's, from the instant the rotation came into force.
    const [first] = await events.waitFor((event) => event.value.schedule.id === schedule.id, 1, 20_000);
    expect(first.key).toBe(`${schedule.id}:${first.value.occurred_at}`);
    expect(first.value).toEqual({
      type: 'oncall.shift_started',
      occurred_at: first.value.occurred_at,
      project_id: project.id,
      schedule: { id: schedule.id, name: 'Events', time_zone: 'UTC' },
      on_call: [
        {
          user: { id: members.bob.id, username: members.bob.username },
          reasons: [
            expect.objectContaining({ source: 'rotation', rotation: { id: rotation.id, name: 'Days' }, override_id: null, shift_starts_at: first.value.occurred_at }),
          ],
        },
      ],
      previous: [],
    });

    // An override starts and ends while the first processor is killed: the second takes the lead.
    stack.processor.kill('SIGKILL');
    const cover = await override(schedule.id, rotation, members.cy, 2_000, 2_000);
    await events.waitFor((event) => event.value.schedule.id === schedule.id, 3, 30_000);

    // Back with two processors, another override: the restarted one and the survivor compete again.
    await stack.restartProcessor();
    const again = await override(schedule.id, rotation, members.ada, 2_000, 1_000);
    await events.waitFor((event) => event.value.schedule.id === schedule.id, 5, 30_000);
    // Both publishers keep looking for a while: nothing is published twice.
    await sleep(10 * CHECK_MS);

    const published = scheduleEvents(schedule.id);
    expect(published.map((event) => [event.key, event.value.previous.map((user) => user.id), event.value.on_call.map((member) => member.user.id)])).toEqual([
      [`${schedule.id}:${first.value.occurred_at}`, [], [members.bob.id]],
      [`${schedule.id}:${cover.starts_at}`, [members.bob.id], [members.cy.id]],
      [`${schedule.id}:${cover.ends_at}`, [members.cy.id], [members.bob.id]],
      [`${schedule.id}:${again.starts_at}`, [members.bob.id], [members.ada.id]],
      [`${schedule.id}:${again.ends_at}`, [members.ada.id], [members.bob.id]],
    ]);
    expect(published[1].value.on_call[0].reasons).toEqual([
      { source: 'override', rotation: { id: rotation.id, name: 'Days' }, override_id: cover.id, shift_starts_at: cover.starts_at, shift_ends_at: cover.ends_at },
    ]);
    expect((await fetch(`${second.url}/healthz`)).status).toBe(200);
  }, 120_000);

  it('publishes an override deleted while under way as its end, once', async () => {
    const schedule = await call<OncallScheduleView>('POST', '/oncall_schedules', { name: 'Deleted override', time_zone: 'Europe/Berlin' });
    const rotation = await call<OncallRotationView>('POST', `/oncall_schedules/${schedule.id}/rotations`, {
      name: 'Weeks',
      starts_at: `${Temporal.Now.plainDateISO('Europe/Berlin').subtract({ days: 2 })}T09:00`,
      shift_length: 1,
      shift_length_unit: 'weeks',
      participant_ids: [members.ada.id],
    });
    const long = await override(schedule.id, rotation, members.bob, 0, 3_600_000);
    const onCall = (event: { value: OncallEvent.OncallEventValue }) => event.value.on_call.map((member) => member.user.id);
    await events.waitFor((event) => event.value.schedule.id === schedule.id && onCall(event)[0] === members.bob.id, 1, 20_000);
    await call('DELETE', `/oncall_schedules/${schedule.id}/overrides/${long.id}`);
    const [ended] = await events.waitFor((event) => event.value.schedule.id === schedule.id && event.value.previous[0]?.id === members.bob.id, 1, 20_000);
    const [stored] = await call<OncallOverrideView[]>('GET', `/oncall_schedules/${schedule.id}/overrides?state=ended`);
    expect([stored.id, ended.key]).toEqual([long.id, `${schedule.id}:${stored.ends_at}`]);
    await sleep(10 * CHECK_MS);
    expect(scheduleEvents(schedule.id).map(onCall)).toEqual([[members.ada.id], [members.bob.id], [members.ada.id]]);
  }, 60_000);
});
