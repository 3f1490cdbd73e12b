import { AccessErrors, Principal, ProjectAccess } from '@alert-ingestion/access';
import { ACCESS_LEVELS, AccessLevel, Member, Project, ProjectTier, ProjectWithAccess } from '@alert-ingestion/contracts';
import { Prisma, PrismaService, prismaSqlQuery } from '@alert-ingestion/database';
import { ConflictError, NotFoundError, PageInfo, pageInfo } from '@alert-ingestion/http';
import { likePattern } from '@alert-ingestion/sql';
import { Injectable } from '@nestjs/common';
import { isUniqueViolation, memberNotFound } from '../errors';
import { lockProject } from './project-lock';
import { IntegrationSnapshotsService } from '../integrations/integration-snapshots.service';

export interface ProjectListQuery {
  /** Case-insensitive text searched in the path. */
  search?: string;
  page: number;
  perPage: number;
}

type Tx = Prisma.TransactionClient;

function presentProject(row: { id: bigint; path: string; tier: ProjectTier }): Project {
  return { id: Number(row.id), path: row.path, tier: row.tier };
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
    private readonly prisma: PrismaService,
    private readonly snapshots: IntegrationSnapshotsService,
  ) {}

  async createProject(path: string, tier: ProjectTier): Promise<Project> {
    try {
      return presentProject(await this.prisma.project.create({ data: { path, tier } }));
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
    const userId = principal.kind === 'user' ? principal.userId.toString() : null;
    const search = query.search ? likePattern(query.search) : null;
    const offset = (query.page - 1) * query.perPage;
    const where = `($1::bigint IS NULL OR m.user_id IS NOT NULL) AND ($2::text IS NULL OR p.path ILIKE $2)`;
    const from = `FROM projects p LEFT JOIN project_members m ON m.project_id = p.id AND m.user_id = $1::bigint`;
    const [rows, counted] = await Promise.all([
      this.prisma.$queryRawUnsafe<Array<{ id: bigint; path: string; tier: ProjectTier; access_level: AccessLevel | null }>>(
        `SELECT p.id, p.path, p.tier::text AS tier, m.access_level::text AS access_level ${from} WHERE ${where}
         ORDER BY p.path LIMIT ${query.perPage} OFFSET ${offset}`,
        userId,
        search,
      ),
      this.prisma.$queryRawUnsafe<Array<{ total: bigint }>>(`SELECT count(*) AS total ${from} WHERE ${where}`, userId, search),
    ]);
    return {
      projects: rows.map((row) => ({ ...presentProject(row), access_level: row.access_level })),
      page: pageInfo(Number(counted[0].total), query.page, query.perPage),
    };
  }

  async getProject(access: ProjectAccess): Promise<ProjectWithAccess> {
    const project = await this.prisma.project.findUnique({ where: { id: access.projectId } });
    if (!project) throw AccessErrors.projectNotFound();
    return { ...presentProject(project), access_level: access.accessLevel };
  }

  /**
   * Changes a project's tier. The gateway and the processor apply tier rules from integration
   * snapshots, so every integration of the project gets a new version and a new snapshot.
   */
  async updateTier(projectId: bigint, tier: ProjectTier): Promise<Project> {
    const { project, outboxId } = await this.prisma.$transaction(async (tx) => {
      await lockProject(tx, projectId);
      const updated = await tx.project.update({ where: { id: projectId }, data: { tier } });
      await tx.alertIntegration.updateMany({ where: { project_id: projectId }, data: { version: { increment: 1 } } });
      const integrations = await tx.alertIntegration.findMany({ where: { project_id: projectId }, select: { id: true } });
      return { project: updated, outboxId: await this.snapshots.record(prismaSqlQuery(tx), integrations.map((integration) => integration.id)) };
    });
    await this.snapshots.published(outboxId);
    return presentProject(project);
  }

  /** Members by role (highest first), then username. */
  async listMembers(projectId: bigint): Promise<Member[]> {
    const members = await this.prisma.projectMember.findMany({
      where: { project_id: projectId },
      select: { user_id: true, access_level: true, user: { select: { username: true } } },
    });
    return members
      .map((member) => ({ user_id: Number(member.user_id), username: member.user.username, access_level: member.access_level }))
      .sort((a, b) => ACCESS_LEVELS.indexOf(b.access_level) - ACCESS_LEVELS.indexOf(a.access_level) || a.username.localeCompare(b.username));
  }

  /**
   * Users who may be added as members (admin or owner): those who are not members yet, whose username
   * contains `search` (case-insensitive; usernames that start with it first), by username, at most
   * MEMBER_CANDIDATES_LIMIT, as GitLab's member picker searches users.
   */
  async memberCandidates(projectId: bigint, search: string): Promise<MemberCandidate[]> {
    const users = await this.prisma.user.findMany({
      where: { username: { contains: search, mode: 'insensitive' }, memberships: { none: { project_id: projectId } } },
      select: { id: true, username: true },
      orderBy: { username: 'asc' },
      take: search === '' ? MEMBER_CANDIDATES_LIMIT : MEMBER_CANDIDATES_LIMIT * 5,
    });
    const starts = (username: string) => username.toLowerCase().startsWith(search.toLowerCase());
    return users
      .sort((a, b) => Number(starts(b.username)) - Number(starts(a.username)))
      .slice(0, MEMBER_CANDIDATES_LIMIT)
      .map((user) => ({ id: Number(user.id), username: user.username }));
  }

  /** Adds a member (admin or owner). 404 for an unknown user, 409 when already a member. */
  async addMember(projectId: bigint, userId: bigint, accessLevel: AccessLevel): Promise<Member> {
    const user = await this.prisma.user.findUnique({ where: { id: userId }, select: { id: true, username: true } });
    if (!user) throw new NotFoundError(`User ${userId} not found.`, 'user_not_found', 'user_id');
    try {
      const member = await this.prisma.projectMember.create({ data: { project_id: projectId, user_id: userId, access_level: accessLevel } });
      return { user_id: Number(member.user_id), username: user.username, access_level: member.access_level };
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`${user.username} is already a member of the project.`, 'already_member', 'user_id');
      throw error;
    }
  }

  /** Changes a member's role (admin or owner). A project that has an owner keeps at least one. */
  async updateMember(projectId: bigint, userId: bigint, accessLevel: AccessLevel): Promise<Member> {
    return this.prisma.$transaction(async (tx) => {
      await lockProject(tx, projectId);
      const member = await this.findMember(tx, projectId, userId);
      if (member.access_level === 'owner' && accessLevel !== 'owner') await this.keepAnOwner(tx, projectId, 'demoted');
      const updated = await tx.projectMember.update({
        where: { project_id_user_id: { project_id: projectId, user_id: userId } },
        data: { access_level: accessLevel },
      });
      return { user_id: Number(updated.user_id), username: member.user.username, access_level: updated.access_level };
    });
  }

  /** Removes a member (admin or owner). A project that has an owner keeps at least one. */
  async removeMember(projectId: bigint, userId: bigint): Promise<void> {
    await this.prisma.$transaction(async (tx) => {
      await lockProject(tx, projectId);
      const member = await this.findMember(tx, projectId, userId);
      if (member.access_level === 'owner') await this.keepAnOwner(tx, projectId, 'removed');
      await tx.projectMember.delete({ where: { project_id_user_id: { project_id: projectId, user_id: userId } } });
    });
  }

  private async findMember(tx: Tx, projectId: bigint, userId: bigint) {
    const member = await tx.projectMember.findUnique({
      where: { project_id_user_id: { project_id: projectId, user_id: userId } },
      select: { access_level: true, user: { select: { username: true } } },
    });
    if (!member) throw memberNotFound(userId);
    return member;
  }

  /** Called under the project's lock, so two changes cannot remove its last two owners at once. */
  private async keepAnOwner(tx: Tx, projectId: bigint, change: 'demoted' | 'removed'): Promise<void> {
    const owners = await tx.projectMember.count({ where: { project_id: projectId, access_level: 'owner' } });
    if (owners <= 1) throw new ConflictError(`The last owner of a project cannot be ${change}; make another member owner first.`, 'last_owner', change === 'demoted' ? 'access_level' : undefined);
  }
}
