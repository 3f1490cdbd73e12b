import type { OncallScheduleView } from '@alert-ingestion/contracts';
import ICAL from 'ical.js';
import { Page } from 'playwright-core';
import { addHttpIntegration, addMember, ConsoleBrowser, ConsoleStack, stackApi, stepsInOrder } from './support/console-harness';

const ZONE = 'Europe/Berlin';

/**
 * On-call schedules in Chromium against the real stack (docs/console.md "On-call schedules"): a
 * maintainer creates a schedule and a rotation, its preview showing the next daylight-saving change;
 * a developer puts themselves on call across a handoff, sees it on the two-week timeline, the gap
 * warning and "On call now" of the alerts page, and subscribes to the calendar feed, which holds
 * the same override.
 */
describe('web console: on-call schedules, in Chromium', () => {
  let stack: ConsoleStack;
  let browser: ConsoleBrowser;
  let page: Page;
  let projectId: number;
  let maintainer: { id: number; username: string; token: string };
  let developer: { id: number; username: string; token: string };
  let ada: { id: number; username: string };
  let scheduleId: number;
  const today = Temporal.Now.plainDateISO(ZONE);
  const tomorrow = today.add({ days: 1 });

  const api = <T>(method: string, path: string, body?: unknown, token?: string): Promise<T> => stackApi<T>(stack, method, path, body, token);

  beforeAll(async () => {
    stack = await ConsoleStack.start();
    browser = await ConsoleBrowser.launch(stack.integrationConfig.url);
    page = browser.page;
    projectId = (await api<{ id: number }>('POST', '/projects', { path: 'acme/payments', tier: 'premium' })).id;
    maintainer = await addMember(stack, projectId, 'mara', 'maintainer');
    developer = await addMember(stack, projectId, 'dev', 'developer');
    ada = await addMember(stack, projectId, 'ada', 'developer');
    await addHttpIntegration(stack, projectId);
  }, 180_000);

  const step = stepsInOrder(() => browser, 240_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  });

  step('a maintainer finds Monitor > On-call schedules and creates a schedule in Europe/Berlin', async () => {
    await browser.signIn(maintainer.token);
    await page.goto(`/projects/${projectId}/alerts`);
    await page.getByRole('navigation', { name: 'Project' }).getByRole('link', { name: 'On-call schedules' }).click();
    await browser.heading('On-call schedules').waitFor();
    await page.getByText('No on-call schedules yet.', { exact: false }).waitFor();
    await page.getByRole('button', { name: 'New schedule' }).click();
    const form = page.getByRole('form', { name: 'New schedule' });
    await form.getByLabel('Name', { exact: true }).fill('Payments primary');
    // An abbreviation is no zone: the API's refusal (a 400 the browser logs) shows at the field.
    browser.expectConsoleErrors(/status of 400 .*oncall_schedules/);
    await form.getByLabel('Time zone', { exact: true }).fill('PST');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await form.getByText('time_zone must be an IANA time zone name', { exact: false }).waitFor();
    await form.getByLabel('Time zone', { exact: true }).fill(ZONE);
    await form.getByRole('button', { name: 'Create schedule' }).click();
    await browser.heading('Payments primary').waitFor();
    await page.getByText('Schedule Payments primary created. Add its rotations.').waitFor();
    scheduleId = Number(/oncall\/(\d+)/.exec(page.url())?.[1]);
    expect(scheduleId).toBeGreaterThan(0);
  });

  step('adds a daily rotation whose preview shows the next daylight-saving change, a shift of 23 or 25 hours', async () => {
    await page.getByRole('link', { name: 'Add rotation' }).click();
    await browser.heading('New rotation').waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Days');
    const change = Temporal.Now.zonedDateTimeISO(ZONE).getTimeZoneTransition('next');
    expect(change).not.toBeNull();
    const changeDay = change?.toPlainDate() ?? today;
    await page.getByLabel(`First handoff (${ZONE})`).fill(`${changeDay.subtract({ days: 2 })}T09:00`);
    await page.getByLabel('Shift length', { exact: true }).fill('1');
    await page.getByLabel('Unit', { exact: true }).selectOption('days');
    for (const member of [ada, developer]) await page.getByLabel('Add a member', { exact: true }).selectOption(`${member.id}`);
    const preview = page.getByRole('region', { name: 'Next shifts' });
    const changing = preview.locator('tr.preview-change');
    await changing.getByText('Clocks change', { exact: false }).waitFor();
    const length = await changing.locator('td').nth(3).innerText();
    expect(length).toMatch(/^(23|25) h/);
    await preview.getByRole('cell', { name: `${changeDay.subtract({ days: 1 })} 09:00`, exact: false }).first().waitFor();
    await browser.screenshot('oncall-rotation-preview');

    // The rotation itself starts yesterday, on call from 07:00 to 22:00: nights are gaps.
    await page.getByLabel(`First handoff (${ZONE})`).fill(`${today.subtract({ days: 1 })}T09:00`);
    await page.getByLabel('On call only part of each day').check();
    await page.getByLabel('From', { exact: true }).fill('07:00');
    await page.getByLabel('Until', { exact: true }).fill('22:00');
    await page.getByRole('button', { name: 'Add rotation' }).click();
    await browser.heading('Payments primary').waitFor();
    await page.getByText('Rotation Days added.').waitFor();
    await page.getByText('In turn: @ada → @dev').waitFor();
  });

  step('a developer puts themselves on call across tomorrow’s handoff: the timeline marks the override, and the gaps of the nights are warned of', async () => {
    await browser.signIn(developer.token, { signOutFirst: true });
    await page.goto(`/projects/${projectId}/oncall/${scheduleId}`);
    await browser.heading('Payments primary').waitFor();
    await page.getByRole('status').getByText(/^Nobody is on call \d+ times in the next 7 days:/).waitFor();
    // A developer changes no schedule or rotation: those controls are a maintainer's.
    expect(await page.getByRole('button', { name: 'Edit schedule' }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Add rotation' }).count()).toBe(0);
    const form = page.getByRole('form', { name: 'New override' });
    await form.getByLabel(`From (${ZONE})`).fill(`${tomorrow}T08:00`);
    await form.getByLabel(`Until (${ZONE})`).fill(`${tomorrow}T11:00`);
    await form.getByText('Your time:', { exact: false }).first().waitFor();
    await form.getByRole('button', { name: 'Add override' }).click();
    await page.getByText(`@dev is on call in place of Days from`, { exact: false }).waitFor();
    const timeline = page.getByRole('group', { name: `Shifts of the next 14 days, in ${ZONE}` });
    const bar = timeline.getByRole('listitem', { name: /^@dev, override of Days: / });
    await bar.waitFor();
    expect(await bar.getAttribute('aria-label')).toContain(`${Temporal.PlainDate.from(tomorrow).day}`);
    expect(await timeline.locator('.shift-override').count()).toBe(1);
    await browser.screenshot('oncall-schedule');
  });

  step('the shift list, who is on call at tomorrow 10:00 and the calendar feed all say the same override', async () => {
    await page.getByText('Shifts as a list').click();
    const row = page.getByRole('row', { name: /@dev Override of Days/ });
    await row.waitFor();
    const at = tomorrow.toPlainDateTime('10:00').toZonedDateTime(ZONE).toInstant().toString();
    const onCall = await api<{ on_call: Array<{ user: { username: string }; reasons: Array<{ source: string; shift_starts_at: string; shift_ends_at: string }> }> }>(
      'GET',
      `/projects/${projectId}/oncall_schedules/${scheduleId}/on_call?at=${at}`,
      undefined,
      developer.token,
    );
    expect(onCall.on_call.map((member) => [member.user.username, member.reasons[0].source])).toEqual([['dev', 'override']]);

    await page.getByRole('button', { name: 'Make calendar URL' }).click();
    const url = page.getByLabel('Calendar URL', { exact: true });
    await url.waitFor();
    const feedUrl = await url.inputValue();
    expect(feedUrl).toMatch(new RegExp(`/api/v4/projects/${projectId}/oncall_schedules/${scheduleId}/calendar\\.ics\\?token=`));
    await page.getByRole('button', { name: 'Copy the calendar URL' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(feedUrl);
    const feed = await page.request.get(feedUrl);
    expect(feed.headers()['content-type']).toMatch(/^text\/calendar/);
    const events = new ICAL.Component(ICAL.parse(await feed.text())).getAllSubcomponents('vevent').map((event) => new ICAL.Event(event));
    const override = events.filter((event) => event.summary.startsWith('dev on call') && event.description.startsWith('Override of Days'));
    expect(override.map((event) => [event.startDate.toJSDate().toISOString(), event.endDate.toJSDate().toISOString()])).toEqual([
      [onCall.on_call[0].reasons[0].shift_starts_at, onCall.on_call[0].reasons[0].shift_ends_at],
    ]);
  });

  step('a guest, who sees no alerts, sees who is on call on the project page', async () => {
    const guest = await addMember(stack, projectId, 'guest', 'guest');
    await browser.signIn(guest.token, { signOutFirst: true });
    await page.goto(`/projects/${projectId}`);
    const card = page.getByRole('region', { name: 'On call now' });
    await card.getByText('Payments primary').waitFor();
    // Its schedules themselves are a developer's to see: no link.
    expect(await card.getByRole('link').count()).toBe(0);
    await browser.signIn(developer.token, { signOutFirst: true });
  });

  step('the alerts page says who is on call now in each schedule', async () => {
    const schedule = await api<OncallScheduleView>('GET', `/projects/${projectId}/oncall_schedules/${scheduleId}`, undefined, developer.token);
    await page.goto(`/projects/${projectId}/alerts`);
    const card = page.getByRole('region', { name: 'On call now' });
    await card.getByRole('link', { name: 'Payments primary' }).waitFor();
    const expected = schedule.on_call_now.length === 0 ? 'Nobody' : `@${schedule.on_call_now[0].user.username}`;
    await card.getByText(expected, { exact: false }).first().waitFor();
    await browser.screenshot('alerts-on-call-now', { viewportOnly: true });
    await card.getByRole('link', { name: 'Payments primary' }).click();
    await browser.heading('Payments primary').waitFor();
    await page.getByRole('navigation', { name: 'On-call schedule' }).getByRole('link', { name: 'On-call schedules' }).click();
    await page.getByRole('link', { name: 'Payments primary' }).waitFor();
    await browser.screenshot('oncall-schedules', { viewportOnly: true });
  });
});
