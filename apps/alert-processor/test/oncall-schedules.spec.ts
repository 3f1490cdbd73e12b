import type { OncallCalendarUrlView, OncallOverrideView, OncallRotationView, OncallScheduleView, OncallShiftView, OnCallView, RotationPreviewShiftView } from '@alert-ingestion/contracts';
import { eventually, ServiceStack, StackProject } from '@alert-ingestion/testing';
import ICAL from 'ical.js';
import { StackMember as Member, stackMembers } from './stack-members';

interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}


const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** Local date and time of an instant in a zone, `2027-03-28T09:00`, read by Intl (not by the code under test). */
function localTime(instant: string | number, timeZone: string): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' })
      .formatToParts(new Date(instant))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The zone's next two daylight-saving changes after `from`, as instants. */
function nextChanges(timeZone: string, from: number): Temporal.ZonedDateTime[] {
  const first = Temporal.Instant.fromEpochMilliseconds(from).toZonedDateTimeISO(timeZone).getTimeZoneTransition('next');
  const second = first?.getTimeZoneTransition('next');
  if (!first || !second) throw new Error(`${timeZone} has no daylight-saving changes ahead`);
  return [first, second];
}

const hours = (shift: { starts_at: string; ends_at: string }) => (Date.parse(shift.ends_at) - Date.parse(shift.starts_at)) / HOUR;

/**
 * On-call schedules through the real stack (docs/api-guide.md "On-call schedules"): every call made
 * through integration-config's alerts proxy as the console makes it, the processor answering from
 * PostgreSQL, members and roles from the management API; the calendar feed read without a token and
 * parsed by ical.js.
 */
describe('on-call schedules through the stack', () => {
  let stack: ServiceStack;
  let project: StackProject;
  let members: Record<'maintainer' | 'developer' | 'guest' | 'ada' | 'bob', Member>;

  const call = <T = unknown>(member: Member, method: string, path: string, body?: unknown): Promise<Answer<T>> =>
    stack.answerAs<T>(member.token, method, `/projects/${project.id}${path}`, body);

  async function created<T>(answer: Promise<Answer<T>>): Promise<T> {
    const { status, body } = await answer;
    expect([status, body]).toEqual([201, expect.anything()]);
    return body;
  }

  const schedule = (name: string, timeZone: string) => created(call<OncallScheduleView>(members.maintainer, 'POST', '/oncall_schedules', { name, time_zone: timeZone }));

  const rotation = (scheduleId: number, body: Record<string, unknown>) =>
    created(call<OncallRotationView>(members.maintainer, 'POST', `/oncall_schedules/${scheduleId}/rotations`, { participant_ids: [members.ada.id, members.bob.id], ...body }));

  async function shifts(scheduleId: number, from: number, to: number, query = ''): Promise<OncallShiftView[]> {
    const answer = await call<OncallShiftView[]>(members.developer, 'GET', `/oncall_schedules/${scheduleId}/shifts?starts_at=${new Date(from).toISOString()}&ends_at=${new Date(to).toISOString()}${query}`);
    expect(answer.status).toBe(200);
    return answer.body;
  }

  async function onCallAt(scheduleId: number, at: number, member = members.guest): Promise<OnCallView> {
    const answer = await call<OnCallView>(member, 'GET', `/oncall_schedules/${scheduleId}/on_call?at=${new Date(at).toISOString()}`);
    expect(answer.status).toBe(200);
    return answer.body;
  }

  beforeAll(async () => {
    stack = await ServiceStack.start({ processor: { ONCALL_HANDOFF_CHECK_MS: '200' } });
    project = await stack.createProject('premium', { pathPrefix: 'oncall' });
    members = await stackMembers(stack, project.id, { maintainer: 'maintainer', developer: 'developer', guest: 'guest', ada: 'developer', bob: 'developer' });
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
  }, 60_000);

  describe('schedules and roles', () => {
    it('takes an IANA zone and refuses an unknown one, PST included, naming time_zone', async () => {
      for (const zone of ['PST', 'Mars/Olympus', '+01:00']) {
        const answer = await call(members.maintainer, 'POST', '/oncall_schedules', { name: `bad ${zone}`, time_zone: zone });
        expect([zone, answer.status, answer.body]).toEqual([zone, 400, expect.objectContaining({ error: 'validation_failed', field: 'time_zone', message: expect.stringContaining('IANA') })]);
      }
      const made = await schedule('Primary', 'europe/berlin');
      expect(made).toEqual(expect.objectContaining({ name: 'Primary', time_zone: 'Europe/Berlin', rotations: [], on_call_now: [], calendar_url_created_at: null }));
      const again = await call(members.maintainer, 'POST', '/oncall_schedules', { name: 'Primary', time_zone: 'UTC' });
      expect([again.status, again.body]).toEqual([409, expect.objectContaining({ error: 'schedule_name_taken', field: 'name' })]);
    });

    it('lets maintainers change schedules, developers see them, and everyone see who is on call', async () => {
      const made = await schedule('Roles', 'UTC');
      expect((await call(members.developer, 'POST', '/oncall_schedules', { name: 'Mine', time_zone: 'UTC' })).status).toBe(403);
      expect((await call(members.developer, 'PUT', `/oncall_schedules/${made.id}`, { name: 'Renamed' })).status).toBe(403);
      expect((await call(members.developer, 'POST', `/oncall_schedules/${made.id}/rotations`, { name: 'x', starts_at: '2030-01-01T09:00', shift_length: 1, shift_length_unit: 'days', participant_ids: [members.ada.id] })).status).toBe(403);
      expect((await call(members.developer, 'GET', `/oncall_schedules/${made.id}`)).status).toBe(200);
      expect((await call(members.guest, 'GET', '/oncall_schedules')).status).toBe(403);
      expect((await call(members.guest, 'GET', `/oncall_schedules/${made.id}/on_call`)).status).toBe(200);
      const everyone = await call<OnCallView[]>(members.guest, 'GET', '/oncall_schedules/on_call');
      expect(everyone.status).toBe(200);
      expect(everyone.body.map((view) => view.schedule.name)).toEqual(expect.arrayContaining(['Primary', 'Roles']));
      expect((await call(members.maintainer, 'GET', '/oncall_schedules/999999')).status).toBe(404);
      expect((await call(members.maintainer, 'GET', '/oncall_schedules/nope')).body).toEqual(expect.objectContaining({ error: 'schedule_not_found' }));
      expect((await call(members.maintainer, 'DELETE', `/oncall_schedules/${made.id}`)).status).toBe(204);
      expect((await call(members.maintainer, 'GET', `/oncall_schedules/${made.id}`)).status).toBe(404);
    });

    it.each<[string, Record<string, unknown>, string]>([
      ['a start with an offset', { starts_at: '2030-01-01T09:00:00Z' }, 'starts_at'],
      ['an active period on an hourly rotation', { shift_length_unit: 'hours', active_period: { start_time: '09:00', end_time: '17:00' } }, 'active_period'],
      ['someone who is not a member', { participant_ids: [999_999] }, 'participant_ids[0]'],
      ['more than 100 participants', { participant_ids: Array.from({ length: 101 }, (_, index) => index + 1) }, 'participant_ids'],
      ['a shift length that is no number', { shift_length: 'one' }, 'shift_length'],
    ])('refuses a rotation with %s, naming the field', async (_case, change, field) => {
      const made = (await call<OncallScheduleView[]>(members.developer, 'GET', '/oncall_schedules')).body.find((candidate) => candidate.name === 'Primary') as OncallScheduleView;
      const answer = await call(members.maintainer, 'POST', `/oncall_schedules/${made.id}/rotations`, {
        name: `bad ${field}`,
        starts_at: '2030-01-01T09:00',
        shift_length: 1,
        shift_length_unit: 'days',
        participant_ids: [members.ada.id],
        ...change,
      });
      expect([answer.status, answer.body]).toEqual([400, expect.objectContaining({ field })]);
    });
  });

  describe('daylight-saving changes', () => {
    it.each([
      ['Europe/Berlin', 'the last Sunday of March and of October'],
      ['America/New_York', 'the second Sunday of March and the first of November'],
    ])('%s: daily and weekly rotations hand over at the same local time across %s, shifts of 23 and 25 hours', async (timeZone) => {
      const made = await schedule(`Changes ${timeZone}`, timeZone);
      const changes = nextChanges(timeZone, Date.now() + DAY);
      // The changes are the zone's rule days, read by Temporal from the time zone database.
      const [spring, autumn] = [...changes].sort((a, b) => a.month - b.month);
      expect(spring.dayOfWeek).toBe(7);
      expect(autumn.dayOfWeek).toBe(7);
      if (timeZone === 'Europe/Berlin') expect([spring.month, spring.day > 24, autumn.month, autumn.day > 24]).toEqual([3, true, 10, true]);
      else expect([spring.month, spring.day >= 8 && spring.day <= 14, autumn.month, autumn.day <= 7]).toEqual([3, true, 11, true]);

      for (const change of changes) {
        const day = change.toPlainDate();
        const daily = await rotation(made.id, { name: `daily ${day}`, starts_at: `${day.subtract({ days: 3 })}T09:00`, shift_length: 1, shift_length_unit: 'days' });
        const weekly = await rotation(made.id, { name: `weekly ${day}`, starts_at: `${day.subtract({ days: 3 })}T09:00`, shift_length: 1, shift_length_unit: 'weeks' });
        const from = Date.parse(`${day.subtract({ days: 3 }).toString()}T00:00:00Z`) - DAY;
        const all = await shifts(made.id, from, from + 14 * DAY);
        const dailyShifts = all.filter((shift) => shift.rotation?.id === daily.id && Date.parse(shift.starts_at) > from);
        const weeklyShifts = all.filter((shift) => shift.rotation?.id === weekly.id && Date.parse(shift.starts_at) > from);
        expect(new Set(dailyShifts.map((shift) => localTime(shift.starts_at, timeZone).slice(11)))).toEqual(new Set(['09:00']));
        expect(new Set(weeklyShifts.map((shift) => localTime(shift.starts_at, timeZone).slice(11)))).toEqual(new Set(['09:00']));
        const longer = change.offsetNanoseconds < change.subtract({ hours: 2 }).offsetNanoseconds;
        const overChange = dailyShifts.find((shift) => Date.parse(shift.starts_at) < change.epochMilliseconds && Date.parse(shift.ends_at) > change.epochMilliseconds);
        expect(overChange && hours(overChange)).toBe(longer ? 25 : 23);
        expect(hours(weeklyShifts[0])).toBe(longer ? 169 : 167);
        expect(dailyShifts.map((shift) => shift.user.username).slice(0, 4)).toEqual([members.ada, members.bob, members.ada, members.bob].map((member) => member.username));
      }
    });

    it('an hourly rotation counts elapsed hours over the same changes: its local handoff time moves by the change', async () => {
      for (const timeZone of ['Europe/Berlin', 'America/New_York']) {
        const made = await schedule(`Hourly ${timeZone}`, timeZone);
        for (const change of nextChanges(timeZone, Date.now() + DAY)) {
          const day = change.toPlainDate();
          const hourly = await rotation(made.id, { name: `12h ${day}`, starts_at: `${day.subtract({ days: 1 })}T09:00`, shift_length: 12, shift_length_unit: 'hours' });
          const from = change.epochMilliseconds - 2 * DAY;
          const handoffs = (await shifts(made.id, from, from + 4 * DAY))
            .filter((shift) => shift.rotation?.id === hourly.id && Date.parse(shift.starts_at) > from)
            .map((shift) => Date.parse(shift.starts_at));
          expect(handoffs.slice(1).map((instant, index) => (instant - handoffs[index]) / HOUR)).toEqual(handoffs.slice(1).map(() => 12));
          const before = handoffs.filter((instant) => instant < change.epochMilliseconds).map((instant) => localTime(instant, timeZone).slice(11));
          const after = handoffs.filter((instant) => instant > change.epochMilliseconds).map((instant) => localTime(instant, timeZone).slice(11));
          expect(new Set(before)).toEqual(new Set(['09:00', '21:00']));
          const springForward = change.offsetNanoseconds > change.subtract({ hours: 2 }).offsetNanoseconds;
          expect(new Set(after)).toEqual(springForward ? new Set(['10:00', '22:00']) : new Set(['08:00', '20:00']));
        }
      }
    });

    it('previews the next shifts with their local times and offsets, the change visible, storing nothing', async () => {
      const made = await schedule('Preview', 'Europe/Berlin');
      const [change] = nextChanges('Europe/Berlin', Date.now() + DAY);
      const day = change.toPlainDate();
      const body = { starts_at: `${day.subtract({ days: 2 })}T09:00`, shift_length: 1, shift_length_unit: 'days', participant_ids: [members.ada.id, members.bob.id], count: 4 };
      const answer = await call<RotationPreviewShiftView[]>(members.maintainer, 'POST', `/oncall_schedules/${made.id}/rotations/preview`, body);
      expect(answer.status).toBe(200);
      expect(answer.body.map((shift) => [shift.local_starts_at, hours(shift)])).toEqual([
        [`${day.subtract({ days: 2 })}T09:00`, 24],
        [`${day.subtract({ days: 1 })}T09:00`, change.offsetNanoseconds > change.subtract({ hours: 2 }).offsetNanoseconds ? 23 : 25],
        [`${day}T09:00`, 24],
        [`${day.add({ days: 1 })}T09:00`, 24],
      ]);
      expect(answer.body[1].utc_offset_at_start).not.toBe(answer.body[1].utc_offset_at_end);
      expect((await call<OncallScheduleView>(members.developer, 'GET', `/oncall_schedules/${made.id}`)).body.rotations).toEqual([]);
    });
  });

  describe('an override across a handoff', () => {
    let made: OncallScheduleView;
    let days: OncallRotationView;
    let handoff: number;
    let override: OncallOverrideView;

    beforeAll(async () => {
      made = await schedule('Overrides', 'Europe/Berlin');
      const tomorrow = Temporal.Now.plainDateISO('Europe/Berlin').add({ days: 1 });
      days = await rotation(made.id, { name: 'Days', starts_at: `${tomorrow.subtract({ days: 10 })}T09:00`, shift_length: 1, shift_length_unit: 'days' });
      handoff = tomorrow.toPlainDateTime('09:00').toZonedDateTime('Europe/Berlin').epochMilliseconds;
      // A developer puts themselves on call from two hours before the handoff to two hours after it
      // (the end as a local time of the schedule's zone).
      override = await created(
        call<OncallOverrideView>(members.developer, 'POST', `/oncall_schedules/${made.id}/overrides`, {
          user_id: members.developer.id,
          rotation_id: days.id,
          starts_at: new Date(handoff - 2 * HOUR).toISOString(),
          ends_at: `${tomorrow}T11:00`,
        }),
      );
    });

    it('shows identically in who is on call, the shift list and the calendar feed', async () => {
      expect(override).toEqual(expect.objectContaining({ user: { id: members.developer.id, username: members.developer.username }, rotation: { id: days.id, name: 'Days' }, state: 'upcoming' }));
      expect(override.ends_at).toBe(new Date(handoff + 2 * HOUR).toISOString());

      // Two days either side, so the shifts next to the override are whole.
      const list = (await shifts(made.id, handoff - 2 * DAY, handoff + 2 * DAY)).filter((shift) => Date.parse(shift.ends_at) > handoff - DAY && Date.parse(shift.starts_at) < handoff + DAY);
      expect(list.map((shift) => [shift.ends_at, shift.source]).slice(0, 2)).toEqual([
        [new Date(handoff - 2 * HOUR).toISOString(), 'rotation'],
        [new Date(handoff + 2 * HOUR).toISOString(), 'override'],
      ]);
      expect(list[1]).toEqual({
        starts_at: new Date(handoff - 2 * HOUR).toISOString(),
        ends_at: new Date(handoff + 2 * HOUR).toISOString(),
        user: { id: members.developer.id, username: members.developer.username },
        source: 'override',
        rotation: { id: days.id, name: 'Days' },
        override_id: override.id,
      });
      expect(list[2]).toEqual(expect.objectContaining({ starts_at: new Date(handoff + 2 * HOUR).toISOString(), source: 'rotation' }));
      expect(list[0].user.username).not.toBe(list[2].user.username);

      for (const [at, expected] of [
        [handoff - HOUR, list[1]],
        [handoff + HOUR, list[1]],
        [handoff + 3 * HOUR, list[2]],
      ] as const) {
        const view = await onCallAt(made.id, at);
        expect(view.on_call).toEqual([
          {
            user: expected.user,
            reasons: [{ source: expected.source, rotation: expected.rotation, override_id: expected.override_id, shift_starts_at: expected.starts_at, shift_ends_at: expected.ends_at }],
          },
        ]);
      }

      const url = await call<OncallCalendarUrlView>(members.developer, 'POST', `/oncall_schedules/${made.id}/reset_calendar_url`);
      expect(url.status).toBe(200);
      const feed = await fetch(`${stack.urls.integrationConfig}${url.body.calendar_path}`);
      expect(feed.status).toBe(200);
      expect(feed.headers.get('content-type')).toMatch(/^text\/calendar/);
      const events = new ICAL.Component(ICAL.parse(await feed.text()))
        .getAllSubcomponents('vevent')
        .map((component) => new ICAL.Event(component))
        .filter((event) => event.endDate.toJSDate().getTime() > handoff - DAY && event.startDate.toJSDate().getTime() < handoff + DAY)
        .sort((a, b) => a.startDate.toJSDate().getTime() - b.startDate.toJSDate().getTime());
      expect(events.map((event) => [event.startDate.toJSDate().toISOString(), event.endDate.toJSDate().toISOString(), event.summary.split(' ')[0]])).toEqual(
        list.map((shift) => [shift.starts_at, shift.ends_at, shift.user.username]),
      );
      // The feed's times are in UTC.
      expect(new Set(events.flatMap((event) => [event.startDate.zone.tzid, event.endDate.zone.tzid]))).toEqual(new Set(['UTC']));
    });

    it('refuses a developer putting someone else on call, and gives the rotation back when deleted', async () => {
      const someoneElse = await call(members.developer, 'POST', `/oncall_schedules/${made.id}/overrides`, { user_id: members.ada.id, ends_at: new Date(handoff).toISOString() });
      expect([someoneElse.status, someoneElse.body]).toEqual([403, expect.objectContaining({ error: 'forbidden' })]);
      expect((await call(members.ada, 'DELETE', `/oncall_schedules/${made.id}/overrides/${override.id}`)).status).toBe(403);
      expect((await call(members.developer, 'DELETE', `/oncall_schedules/${made.id}/overrides/${override.id}`)).status).toBe(204);
      const list = await shifts(made.id, handoff - 2 * HOUR, handoff + 2 * HOUR);
      expect(list.map((shift) => [shift.starts_at, shift.ends_at, shift.source])).toEqual([
        [new Date(handoff - 2 * HOUR).toISOString(), new Date(handoff).toISOString(), 'rotation'],
        [new Date(handoff).toISOString(), new Date(handoff + 2 * HOUR).toISOString(), 'rotation'],
      ]);
      expect((await call(members.developer, 'DELETE', `/oncall_schedules/${made.id}/overrides/${override.id}`)).status).toBe(404);
    });
  });

  describe('the calendar feed', () => {
    it('answers at its secret URL without a token, with stable UIDs, one member on request, and 404 once reset', async () => {
      const made = await schedule('Feed', 'America/New_York');
      await rotation(made.id, { name: 'Days', starts_at: `${Temporal.Now.plainDateISO('America/New_York').subtract({ days: 3 })}T08:00`, shift_length: 1, shift_length_unit: 'days' });
      const first = (await call<OncallCalendarUrlView>(members.developer, 'POST', `/oncall_schedules/${made.id}/reset_calendar_url`)).body;
      expect(first.calendar_path).toMatch(new RegExp(`^/api/v4/projects/${project.id}/oncall_schedules/${made.id}/calendar\\.ics\\?token=[A-Za-z0-9_-]{32}$`));
      const read = async (path: string, base = stack.urls.integrationConfig) => {
        const response = await fetch(`${base}${path}`);
        return { status: response.status, text: await response.text() };
      };
      const uids = (text: string) => new ICAL.Component(ICAL.parse(text)).getAllSubcomponents('vevent').map((event) => String(event.getFirstPropertyValue('uid')));
      const once = await read(first.calendar_path);
      const twice = await read(first.calendar_path, stack.urls.processor);
      expect(once.status).toBe(200);
      expect(uids(once.text).length).toBeGreaterThan(60);
      expect(uids(twice.text)).toEqual(uids(once.text));
      const adaOnly = new ICAL.Component(ICAL.parse((await read(`${first.calendar_path}&user_id=${members.ada.id}`)).text)).getAllSubcomponents('vevent');
      expect(new Set(adaOnly.map((event) => String(event.getFirstPropertyValue('summary')).split(' ')[0]))).toEqual(new Set([members.ada.username]));

      const second = (await call<OncallCalendarUrlView>(members.developer, 'POST', `/oncall_schedules/${made.id}/reset_calendar_url`)).body;
      expect(second.calendar_path).not.toBe(first.calendar_path);
      const stale = await read(first.calendar_path);
      expect([stale.status, JSON.parse(stale.text)]).toEqual([404, expect.objectContaining({ error: 'calendar_not_found' })]);
      expect((await read(second.calendar_path)).status).toBe(200);
      expect((await read(second.calendar_path.replace(/token=.*/, 'token=guess'))).status).toBe(404);
      expect((await read(second.calendar_path.replace(/\?token=.*/, ''))).status).toBe(400);
      expect((await call<OncallScheduleView>(members.developer, 'GET', `/oncall_schedules/${made.id}`)).body.calendar_url_created_at).toBe(second.created_at);
    });
  });

  it('warns of the gaps of the next 7 days: a daytime rotation leaves the nights uncovered', async () => {
    const made = await schedule('Daytime', 'Europe/Berlin');
    const today = Temporal.Now.plainDateISO('Europe/Berlin');
    await rotation(made.id, { name: 'Office', starts_at: `${today.subtract({ days: 1 })}T09:00`, shift_length: 1, shift_length_unit: 'weeks', active_period: { start_time: '09:00', end_time: '17:00' } });
    const gaps = await call<Array<{ starts_at: string; ends_at: string }>>(members.developer, 'GET', `/oncall_schedules/${made.id}/gaps`);
    expect(gaps.status).toBe(200);
    expect(gaps.body.length).toBeGreaterThanOrEqual(7);
    const nights = gaps.body.filter((gap) => hours(gap) === 16);
    expect(nights.length).toBeGreaterThanOrEqual(5);
    for (const night of nights) expect([localTime(night.starts_at, 'Europe/Berlin').slice(11), localTime(night.ends_at, 'Europe/Berlin').slice(11)]).toEqual(['17:00', '09:00']);
  });

  it('takes a member removed from the project out of every rotation, noting who and when', async () => {
    const { leaver } = await stackMembers(stack, project.id, { leaver: 'developer' });
    const made = await schedule('Leavers', 'UTC');
    const yesterday = Temporal.Now.plainDateISO('UTC').subtract({ days: 1 });
    const first = await rotation(made.id, { name: 'A', starts_at: `${yesterday}T00:00`, shift_length: 1, shift_length_unit: 'days', participant_ids: [leaver.id, members.ada.id] });
    const second = await rotation(made.id, { name: 'B', starts_at: `${yesterday}T00:00`, shift_length: 1, shift_length_unit: 'days', participant_ids: [members.bob.id, leaver.id] });
    // Today is the second shift of both: A puts ada on call, B the leaver.
    expect((await onCallAt(made.id, Date.now())).on_call.map((member) => member.user.id)).toEqual([members.ada.id, leaver.id]);

    // A change takes effect from the start of its second: the removal comes a second later, so that
    // the second before it still has the leaver on call.
    await new Promise((resolve) => setTimeout(resolve, 1_200));
    const removedAt = Date.now();
    await stack.management('DELETE', `/projects/${project.id}/members/${leaver.id}`);
    await eventually(
      async () => {
        const rotations = (await call<OncallScheduleView>(members.developer, 'GET', `/oncall_schedules/${made.id}`)).body.rotations;
        expect(rotations.map((candidate) => [candidate.id, candidate.participants.map((user) => user.id), candidate.removed_participants.map((removal) => removal.user.id)])).toEqual([
          [first.id, [members.ada.id], [leaver.id]],
          [second.id, [members.bob.id], [leaver.id]],
        ]);
        expect(Date.parse(rotations[0].removed_participants[0].removed_at)).toBeGreaterThanOrEqual(removedAt - 1_000);
      },
      20_000,
      200,
    );
    // From then on B has bob alone; A still has ada (their shifts before stay as they were).
    expect((await onCallAt(made.id, Date.now())).on_call.map((member) => member.user.id)).toEqual([members.ada.id, members.bob.id]);
    const secondBeforeRemoval = Math.floor(removedAt / 1000) * 1000 - 1;
    expect((await onCallAt(made.id, secondBeforeRemoval)).on_call.map((member) => member.user.id)).toEqual([members.ada.id, leaver.id]);
  });
});
