import { CalendarFeedQueryDto } from '@alert-ingestion/alerts-api';
import { answered } from '@alert-ingestion/alerts-feature';
import { alertsApiPath, ALERTS_API } from '@alert-ingestion/alerts-api';
import { OncallCalendarUrlView } from '@alert-ingestion/contracts';
import { sha256Hex } from '@alert-ingestion/crypto';
import { NotFoundError } from '@alert-ingestion/http';
import { OncallSchedulesRepository } from '@alert-ingestion/oncall-data';
import { DAY_MS, FinalShift, isoInstant, RotationNames, StoredSchedule, wholeShifts } from '@alert-ingestion/oncall-domain';
import { Inject, Injectable } from '@nestjs/common';
import ical from 'ical-generator';
import { randomBytes } from 'node:crypto';
import { ONCALL_FEATURE_OPTIONS, OncallFeatureOptions } from './oncall-feature.options';
import { OncallTimelines } from './oncall-timelines';
import { OncallEdits } from './oncall-edits';

/** The calendar URL's secret: 24 random bytes (192 bits), base64url. */
const CALENDAR_TOKEN_BYTES = 24;
/** The feed's window: the past week and the next 60 days. */
const FEED_PAST_MS = 7 * DAY_MS;
const FEED_AHEAD_MS = 60 * DAY_MS;

/**
 * Each schedule's final shifts as an iCalendar feed (docs/api-guide.md "Calendar feed") at a secret
 * URL that needs no token, for calendars that subscribe: its secret is kept as a SHA-256 only, shown
 * once when a member resets it, and a reset URL stops working at once.
 */
@Injectable()
export class OncallCalendarService {
  constructor(
    private readonly edits: OncallEdits,
    private readonly repository: OncallSchedulesRepository,
    private readonly timelines: OncallTimelines,
    @Inject(ONCALL_FEATURE_OPTIONS) private readonly options: OncallFeatureOptions,
  ) {}

  /** A new secret URL; the previous one answers 404 from the commit on. */
  async reset(projectId: string, scheduleId: string): Promise<OncallCalendarUrlView> {
    const token = randomBytes(CALENDAR_TOKEN_BYTES).toString('base64url');
    answered(await this.edits.run(projectId, scheduleId, { kind: 'reset_calendar', tokenSha256: sha256Hex(token) }));
    const schedule = await this.timelines.schedule(projectId, scheduleId);
    const path = `${alertsApiPath(ALERTS_API.oncallCalendar).replace(':id', projectId).replace(':schedule_id', scheduleId)}?token=${token}`;
    return {
      calendar_path: path,
      calendar_url: this.options.consoleUrl ? `${this.options.consoleUrl.replace(/\/+$/, '')}${path}` : null,
      created_at: isoInstant(schedule.calendarTokenCreatedAt ?? Date.now()),
    };
  }

  /** The feed, when `token` is the schedule's current secret; otherwise 404, as for a schedule that does not exist. */
  async feed(projectId: string, scheduleId: string, query: CalendarFeedQueryDto, now = Date.now()): Promise<string> {
    const schedule = await this.repository.findByCalendarToken(projectId, scheduleId, sha256Hex(query.token));
    if (!schedule) throw new NotFoundError('No such calendar: the schedule does not exist, or its calendar URL was reset.', 'calendar_not_found');
    const window = { start: now - FEED_PAST_MS, end: now + FEED_AHEAD_MS };
    const { timeline, names, eligibility } = await this.timelines.readOne(projectId, scheduleId, window, now);
    const userId = query.user_id === undefined ? undefined : String(query.user_id);
    const shifts = wholeShifts(timeline, window, eligibility).filter((shift) => userId === undefined || shift.user.userId === userId);
    return calendarOf(schedule, shifts, names);
  }
}

/**
 * The iCalendar document of shifts (ical-generator): one event per shift in UTC, its UID made of
 * what the shift is (schedule, member, rotation or override, start and end), so a calendar that
 * reads the feed again finds the same events, and a changed shift as a new one.
 */
export function calendarOf(schedule: StoredSchedule, shifts: readonly FinalShift[], names: RotationNames): string {
  const calendar = ical({ name: `On call: ${schedule.name}`, prodId: { company: 'alert-ingestion', product: 'oncall-schedules' } });
  for (const shift of shifts) {
    const rotation = shift.rotationId === null ? null : (names.get(shift.rotationId) ?? '');
    const why = shift.source === 'rotation' ? `Rotation ${rotation}` : rotation === null ? 'Override of the whole schedule' : `Override of ${rotation}`;
    calendar.createEvent({
      id: `oncall-${schedule.id}-${shift.rotationId ?? 'schedule'}-${shift.overrideId ?? 'shift'}-${shift.user.userId}-${shift.start}-${shift.end}@alert-ingestion`,
      start: new Date(shift.start),
      end: new Date(shift.end),
      stamp: new Date(shift.start),
      summary: `${shift.user.username} on call (${schedule.name})`,
      description: `${why}. Schedule ${schedule.name}, time zone ${schedule.timeZone}.`,
    });
  }
  return calendar.toString();
}
