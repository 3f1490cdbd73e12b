import { AccessErrors, Principal, ProjectAccess } from '@alert-ingestion/access';
import { ACCESS_LEVELS, AccessLevel, Member, Project, ProjectTier, ProjectWithAccess } from '@alert-ingestion/contracts';
import { ConflictError, NotFoundError, PageInfo, pageInfo } from '@alert-ingestion/http';
import {
  ConfigDatabase,
  ConfigTransaction,
  IntegrationSnapshotOutbox,
  IntegrationsRepository,
  MemberRow,
  ProjectRow,
  ProjectsRepository,
  UsersRepository,
} from '@alert-ingestion/integrations-data';
import { isUniqueViolation, likePattern } from '@alert-ingestion/sql';
import { Injectable } from '@nestjs/common';
import { memberNotFound } from '../errors';
import { lockProject } from './project-lock';
import { IntegrationSnapshotRelay } from '../integrations/integration-snapshot-relay';

export interface ProjectListQuery {
  /** Case-insensitive text searched in the path. */
  search?: string;
  page: number;
  perPage: number;
}

function presentProject(row: ProjectRow): Project {
  return { id: Number(row.id), path: row.path, tier: row.tier };
}

function presentMember(row: MemberRow): Member {
  return { user_id: Number(row.user_id), username: row.username, access_level: row.access_level };
}

/** At most this many users are offered when adding a member: typing more narrows the list. */
export const MEMBER_CANDIDATES_LIMIT = 20;

/** A user who can be added to a project (`GET /projects/:id/members/candidates`). */
export interface MemberCandidate {
  id: number;
  username: string;
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly database: ConfigDatabase,
    private readonly projects: ProjectsRepository,
    private readonly users: UsersRepository,
    private readonly integrations: IntegrationsRepository,
    private readonly snapshotOutbox: IntegrationSnapshotOutbox,
    private readonly snapshotRelay: IntegrationSnapshotRelay,
  ) {}

  async createProject(path: string, tier: ProjectTier): Promise<Project> {
    try {
      return presentProject(await this.projects.create(path, tier));
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`A project with the path "${path}" exists.`, 'path_taken', 'path');
      throw error;
    }
  }

  /**
   * The projects the caller is a member of, with their role (the administrator: every project, role
   * null), ordered by path.
   */
  async listProjects(principal: Principal, query: ProjectListQuery): Promise<{ projects: ProjectWithAccess[]; page: PageInfo }> {
    const { rows, total } = await this.projects.list({
      memberId: principal.kind === 'user' ? principal.userId : null,
      pathPattern: query.search ? likePattern(query.search) : null,
      limit: query.perPage,
      offset: (query.page - 1) * query.perPage,
    });
    return {
      projects: rows.map((row) => ({ ...presentProject(row), access_level: row.access_level })),
      page: pageInfo(total, query.page, query.perPage),
    };
  }

  async getProject(access: ProjectAccess): Promise<ProjectWithAccess> {
    const project = await this.projects.findById(access.projectId);
    if (!project) throw AccessErrors.projectNotFound();
    return { ...presentProject(project), access_level: access.accessLevel };
  }

  /**
   * Changes a project's tier. The gateway and the processor apply tier rules from integration
   * snapshots, so every integration of the project gets a new version and a new snapshot.
   */
  async updateTier(projectId: bigint, tier: ProjectTier): Promise<Project> {
    const { project, outboxId } = await this.database.transaction(async (tx) => {
      await lockProject(this.projects, tx, projectId);
      const updated = await this.projects.updateTier(tx, projectId, tier);
      const integrationIds = await this.integrations.newVersionOfProject(tx, projectId);
      return { project: updated, outboxId: await this.snapshotOutbox.record(tx, integrationIds) };
    });
    await this.snapshotRelay.published(outboxId);
    return presentProject(project);
  }

  /** Members by role (highest first), then username. */
  async listMembers(projectId: bigint): Promise<Member[]> {
    const members = await this.projects.listMembers(projectId);
    return members
      .map(presentMember)
      .sort((a, b) => ACCESS_LEVELS.indexOf(b.access_level) - ACCESS_LEVELS.indexOf(a.access_level) || a.username.localeCompare(b.username));
  }

  /**
   * Users who may be added as members (admin or owner): those who are not members yet, whose username
   * contains `search` (case-insensitive; usernames that start with it first), by username, at most
   * MEMBER_CANDIDATES_LIMIT, as GitLab's member picker searches users.
   */
  async memberCandidates(projectId: bigint, search: string): Promise<MemberCandidate[]> {
    const users = await this.users.findNonMembers(projectId, search, search === '' ? MEMBER_CANDIDATES_LIMIT : MEMBER_CANDIDATES_LIMIT * 5);
    const starts = (username: string) => username.toLowerCase().startsWith(search.toLowerCase());
    return users
      .sort((a, b) => Number(starts(b.username)) - Number(starts(a.username)))
      .slice(0, MEMBER_CANDIDATES_LIMIT)
      .map((user) => ({ id: Number(user.id), username: user.username }));
  }

  /** Adds a member (admin or owner). 404 for an unknown user, 409 when already a member. */
  async addMember(projectId: bigint, userId: bigint, accessLevel: AccessLevel): Promise<Member> {
    const user = await this.users.findById(userId);
    if (!user) throw new NotFoundError(`User ${userId} not found.`, 'user_not_found', 'user_id');
    try {
      const member = await this.projects.addMember(projectId, userId, accessLevel);
      return presentMember({ ...member, username: user.username });
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`${user.username} is already a member of the project.`, 'already_member', 'user_id');
      throw error;
    }
  }

  /** Changes a member's role (admin or owner). A project that has an owner keeps at least one. */
  async updateMember(projectId: bigint, userId: bigint, accessLevel: AccessLevel): Promise<Member> {
    return this.database.transaction(async (tx) => {
      await lockProject(this.projects, tx, projectId);
      const member = await this.findMember(tx, projectId, userId);
      if (member.access_level === 'owner' && accessLevel !== 'owner') await this.keepAnOwner(tx, projectId, 'demoted');
      const updated = await this.projects.updateMember(tx, projectId, userId, accessLevel);
      return presentMember({ ...updated, username: member.username });
    });
  }

  /** Removes a member (admin or owner). A project that has an owner keeps at least one. */
  async removeMember(projectId: bigint, userId: bigint): Promise<void> {
    await this.database.transaction(async (tx) => {
      await lockProject(this.projects, tx, projectId);
      const member = await this.findMember(tx, projectId, userId);
      if (member.access_level === 'owner') await this.keepAnOwner(tx, projectId, 'removed');
      await this.projects.removeMember(tx, projectId, userId);
    });
  }

  private async findMember(tx: ConfigTransaction, projectId: bigint, userId: bigint): Promise<MemberRow> {
    const member = await this.projects.findMember(tx, projectId, userId);
    if (!member) throw memberNotFound(userId);
    return member;
  }

  /** Called under the project's lock, so two changes cannot remove its last two owners at once. */
  private async keepAnOwner(tx: ConfigTransaction, projectId: bigint, change: 'demoted' | 'removed'): Promise<void> {
    const owners = await this.projects.countOwners(tx, projectId);
    if (owners <= 1) throw new ConflictError(`The last owner of a project cannot be ${change}; make another member owner first.`, 'last_owner', change === 'demoted' ? 'access_level' : undefined);
  }
}
