import { Principal, ProjectAccess } from '@alert-ingestion/access';
import { CreateOverrideDto, ListOverridesQueryDto } from '@alert-ingestion/alerts-api';
import { answered, refusalError } from '@alert-ingestion/alerts-feature';
import { hasAccessLevel, OncallOverrideView, REQUIRED_ACCESS_LEVEL } from '@alert-ingestion/contracts';
import { ForbiddenError, PageInfo, pageInfo, pageRequest } from '@alert-ingestion/http';
import { OncallSchedulesRepository } from '@alert-ingestion/oncall-data';
import { mayOverrideFor, overrideNotFound, OverrideActor, overrideView, Participant, rotationNames } from '@alert-ingestion/oncall-domain';
import { Injectable } from '@nestjs/common';
import { OncallTimelines } from './oncall-timelines';
import { OncallEdits } from './oncall-edits';

export interface OncallOverridePage {
  overrides: OncallOverrideView[];
  page: PageInfo;
}

/**
 * Overrides of a schedule (docs/api-guide.md "Overrides"): a member on call in place of a rotation's
 * or the whole schedule's on-call for a window. Developers create and delete only overrides that put
 * themselves on call (mayOverrideFor), maintainers anyone's.
 */
@Injectable()
export class OncallOverridesService {
  constructor(
    private readonly edits: OncallEdits,
    private readonly repository: OncallSchedulesRepository,
    private readonly timelines: OncallTimelines,
  ) {}

  async list(projectId: string, scheduleId: string, query: ListOverridesQueryDto, now = Date.now()): Promise<OncallOverridePage> {
    await this.timelines.schedule(projectId, scheduleId);
    const { page, perPage } = pageRequest(query);
    const [{ overrides, total }, rotations] = await Promise.all([
      this.repository.overrides({ scheduleId, state: query.state, page, perPage, now }),
      this.repository.rotationRefs(scheduleId),
    ]);
    const names = rotationNames(rotations);
    return { overrides: overrides.map((override) => overrideView(override, names, now)), page: pageInfo(total, page, perPage) };
  }

  async create(projectId: string, scheduleId: string, body: CreateOverrideDto, principal: Principal, project: ProjectAccess): Promise<OncallOverrideView> {
    const userId = String(body.user_id);
    refuseUnlessAllowed(actor(principal, project), userId);
    const members = await this.timelines.members(projectId);
    const answer = answered(
      await this.edits.run(projectId, scheduleId, {
        kind: 'create_override',
        userId,
        members,
        rotationId: body.rotation_id === undefined || body.rotation_id === null ? null : String(body.rotation_id),
        starts_at: body.starts_at,
        ends_at: body.ends_at,
        createdBy: creator(principal),
      }),
    );
    return this.find(projectId, scheduleId, answer.overrideId ?? '');
  }

  /** Gives the rotation back: an override under way ends now, one yet to start goes. */
  async remove(projectId: string, scheduleId: string, overrideId: string, principal: Principal, project: ProjectAccess): Promise<void> {
    await this.timelines.schedule(projectId, scheduleId);
    const override = await this.repository.findOverride(scheduleId, overrideId);
    if (!override) throw refusalError(overrideNotFound(overrideId));
    refuseUnlessAllowed(actor(principal, project), override.user.userId);
    answered(await this.edits.run(projectId, scheduleId, { kind: 'delete_override', overrideId }));
  }

  private async find(projectId: string, scheduleId: string, overrideId: string, now = Date.now()): Promise<OncallOverrideView> {
    const [override, rotations] = await Promise.all([this.repository.findOverride(scheduleId, overrideId), this.repository.rotationRefs(scheduleId)]);
    if (!override) throw refusalError(overrideNotFound(overrideId));
    return overrideView(override, rotationNames(rotations), now);
  }
}

function actor(principal: Principal, project: ProjectAccess): OverrideActor {
  return {
    userId: principal.kind === 'user' ? principal.userId.toString() : null,
    managesSchedules: project.accessLevel === null || hasAccessLevel(project.accessLevel, REQUIRED_ACCESS_LEVEL.manageOncallSchedules),
  };
}

function creator(principal: Principal): Participant | null {
  return principal.kind === 'user' ? { userId: principal.userId.toString(), username: principal.username } : null;
}

function refuseUnlessAllowed(who: OverrideActor, userId: string): void {
  if (!mayOverrideFor(who, userId)) {
    throw new ForbiddenError(`A developer may put only themselves on call: overrides of other members need the ${REQUIRED_ACCESS_LEVEL.manageOncallSchedules} role.`);
  }
}
