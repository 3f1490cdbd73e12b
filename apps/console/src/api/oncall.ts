import { keepPreviousData, useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '@console/session/session';
import { dataOf, doneOf, pageOf, Schemas } from './client';
import { PER_PAGE, pollAlerts, useApiQuery, withTotal } from './queries';

// On-call schedules (docs/api-guide.md "On-call schedules"): one hook per call, each naming its path
// once; bodies and answers are typed from the OpenAPI document.

export type OncallSchedule = Schemas['OncallScheduleDto'];
export type OncallRotation = Schemas['OncallRotationDto'];
export type OncallShift = Schemas['OncallShiftDto'];
export type OncallOverride = Schemas['OncallOverrideDto'];
export type OnCall = Schemas['OnCallDto'];
export type OnCallMember = Schemas['OnCallMemberDto'];
export type RotationRequest = Schemas['CreateRotationDto'];
export type RotationPreviewShift = Schemas['RotationPreviewShiftDto'];

export const oncallKeys = {
  all: (projectId: number) => ['oncall', projectId] as const,
  schedule: (projectId: number, scheduleId: number) => ['oncall', projectId, 'schedule', scheduleId] as const,
};

/** Who is on call changes with time alone: the views are read again as alerts are. */
const live = { refetchInterval: pollAlerts };

export function useOncallSchedules(projectId: number, page: number) {
  return useApiQuery(
    [...oncallKeys.all(projectId), 'list', page],
    (api) => pageOf(api.GET('/api/v4/projects/{id}/oncall_schedules', { params: { path: { id: projectId }, query: { page, per_page: PER_PAGE } } })).then(withTotal),
    { placeholderData: keepPreviousData, ...live },
  );
}

/** Who is on call now in each schedule (everyone may see it). */
export function useProjectOnCall(projectId: number) {
  return useApiQuery([...oncallKeys.all(projectId), 'on_call'], (api) => dataOf(api.GET('/api/v4/projects/{id}/oncall_schedules/on_call', { params: { path: { id: projectId } } })), live);
}

export function useOncallSchedule(projectId: number, scheduleId: number) {
  return useApiQuery(
    oncallKeys.schedule(projectId, scheduleId),
    (api) => dataOf(api.GET('/api/v4/projects/{id}/oncall_schedules/{schedule_id}', { params: { path: { id: projectId, schedule_id: scheduleId } } })),
    live,
  );
}

/** The final shifts from `from` to `to` (ISO instants). */
export function useScheduleShifts(projectId: number, scheduleId: number, from: string, to: string) {
  return useApiQuery(
    [...oncallKeys.schedule(projectId, scheduleId), 'shifts', from, to],
    (api) =>
      dataOf(
        api.GET('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/shifts', {
          params: { path: { id: projectId, schedule_id: scheduleId }, query: { starts_at: from, ends_at: to } },
        }),
      ),
    { placeholderData: keepPreviousData, ...live },
  );
}

export function useScheduleGaps(projectId: number, scheduleId: number) {
  return useApiQuery(
    [...oncallKeys.schedule(projectId, scheduleId), 'gaps'],
    (api) => dataOf(api.GET('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/gaps', { params: { path: { id: projectId, schedule_id: scheduleId } } })),
    live,
  );
}

/** Overrides that have not ended, or every one (`ended` included), newest first. */
export function useOverrides(projectId: number, scheduleId: number, includeEnded: boolean) {
  return useApiQuery(
    [...oncallKeys.schedule(projectId, scheduleId), 'overrides', includeEnded],
    async (api) => {
      const query = (state?: 'upcoming' | 'active') => ({ params: { path: { id: projectId, schedule_id: scheduleId }, query: { state, per_page: 100 } } });
      if (includeEnded) return (await pageOf(api.GET('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/overrides', query()))).items;
      const [active, upcoming] = await Promise.all([
        pageOf(api.GET('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/overrides', query('active'))),
        pageOf(api.GET('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/overrides', query('upcoming'))),
      ]);
      return [...upcoming.items, ...active.items];
    },
    live,
  );
}

/** The next shifts a rotation's rules would give (null: nothing to preview yet). */
export function useRotationPreview(projectId: number, scheduleId: number, body: Schemas['PreviewRotationDto'] | null) {
  return useApiQuery(
    [...oncallKeys.schedule(projectId, scheduleId), 'preview', body],
    (api) =>
      dataOf(
        api.POST('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/rotations/preview', {
          params: { path: { id: projectId, schedule_id: scheduleId } },
          body: body as Schemas['PreviewRotationDto'],
        }),
      ),
    { enabled: body !== null, placeholderData: keepPreviousData, retry: false },
  );
}

/** Every change reads the project's on-call views again: any of them may change who is on call. */
export function useOncallMutations(projectId: number) {
  const api = useApi();
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: oncallKeys.all(projectId) });
  const schedule = (scheduleId: number) => ({ path: { id: projectId, schedule_id: scheduleId } });
  return {
    createSchedule: useMutation({
      mutationFn: (body: Schemas['CreateOncallScheduleDto']) => dataOf(api.POST('/api/v4/projects/{id}/oncall_schedules', { params: { path: { id: projectId } }, body })),
      onSuccess,
    }),
    updateSchedule: useMutation({
      mutationFn: ({ scheduleId, body }: { scheduleId: number; body: Schemas['UpdateOncallScheduleDto'] }) =>
        dataOf(api.PUT('/api/v4/projects/{id}/oncall_schedules/{schedule_id}', { params: schedule(scheduleId), body })),
      onSuccess,
    }),
    deleteSchedule: useMutation({
      mutationFn: (scheduleId: number) => doneOf(api.DELETE('/api/v4/projects/{id}/oncall_schedules/{schedule_id}', { params: schedule(scheduleId) })),
      onSuccess,
    }),
    createRotation: useMutation({
      mutationFn: ({ scheduleId, body }: { scheduleId: number; body: RotationRequest }) =>
        dataOf(api.POST('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/rotations', { params: schedule(scheduleId), body })),
      onSuccess,
    }),
    updateRotation: useMutation({
      mutationFn: ({ scheduleId, rotationId, body }: { scheduleId: number; rotationId: number; body: Schemas['UpdateRotationDto'] }) =>
        dataOf(
          api.PUT('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/rotations/{rotation_id}', {
            params: { path: { id: projectId, schedule_id: scheduleId, rotation_id: rotationId } },
            body,
          }),
        ),
      onSuccess,
    }),
    deleteRotation: useMutation({
      mutationFn: ({ scheduleId, rotationId }: { scheduleId: number; rotationId: number }) =>
        doneOf(api.DELETE('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/rotations/{rotation_id}', { params: { path: { id: projectId, schedule_id: scheduleId, rotation_id: rotationId } } })),
      onSuccess,
    }),
    createOverride: useMutation({
      mutationFn: ({ scheduleId, body }: { scheduleId: number; body: Schemas['CreateOverrideDto'] }) =>
        dataOf(api.POST('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/overrides', { params: schedule(scheduleId), body })),
      onSuccess,
    }),
    deleteOverride: useMutation({
      mutationFn: ({ scheduleId, overrideId }: { scheduleId: number; overrideId: number }) =>
        doneOf(api.DELETE('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/overrides/{override_id}', { params: { path: { id: projectId, schedule_id: scheduleId, override_id: overrideId } } })),
      onSuccess,
    }),
    resetCalendarUrl: useMutation({
      mutationFn: (scheduleId: number) => dataOf(api.POST('/api/v4/projects/{id}/oncall_schedules/{schedule_id}/reset_calendar_url', { params: schedule(scheduleId) })),
      onSuccess,
    }),
  };
}
