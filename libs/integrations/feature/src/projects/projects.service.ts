import { ProjectTier } from '@alert-ingestion/contracts';
import { PrismaService } from '@alert-ingestion/database';
import { ConflictError, NotFoundError } from '@alert-ingestion/http';
import { AccessLevel } from '@alert-ingestion/integrations-domain';
import { Injectable } from '@nestjs/common';
import { Principal, ProjectAccess } from '../auth/principal';
import { isUniqueViolation } from '../errors';
import { IntegrationSnapshotsService } from '../integrations/integration-snapshots.service';

export interface ProjectJson {
  id: number;
  path: string;
  tier: ProjectTier;
}

export interface MemberJson {
  project_id: number;
  user_id: number;
  username: string;
  access_level: AccessLevel;
}

@Injectable()
export class ProjectsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly snapshots: IntegrationSnapshotsService,
  ) {}

  async createProject(path: string, tier: ProjectTier): Promise<ProjectJson> {
    try {
      const project = await this.prisma.project.create({ data: { path, tier } });
      return { id: Number(project.id), path: project.path, tier: project.tier };
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`A project with the path "${path}" exists.`, 'path_taken');
      throw error;
    }
  }

  /**
   * Changes a project's tier. The gateway and the processor apply tier rules from integration
   * snapshots, so every integration of the project gets a new version and is republished after the
   * commit (ARCHITECTURE.md "Kafka topics").
   */
  async updateTier(projectId: bigint, tier: ProjectTier): Promise<ProjectJson> {
    const { project, integrationIds } = await this.prisma.$transaction(async (tx) => {
      const locked = await tx.$queryRaw<Array<{ id: bigint }>>`SELECT id FROM projects WHERE id = ${projectId} FOR UPDATE`;
      if (locked.length === 0) throw new NotFoundError('Project not found.', 'project_not_found');
      const updated = await tx.project.update({ where: { id: projectId }, data: { tier } });
      await tx.alertIntegration.updateMany({ where: { project_id: projectId }, data: { version: { increment: 1 } } });
      const integrations = await tx.alertIntegration.findMany({ where: { project_id: projectId }, select: { id: true } });
      return { project: updated, integrationIds: integrations.map((integration) => integration.id) };
    });
    await this.snapshots.publishAfterCommit(integrationIds);
    return { id: Number(project.id), path: project.path, tier: project.tier };
  }

  /** Adds a member (admin or owner). 404 for an unknown user, 409 when already a member. */
  async addMember(projectId: bigint, userId: bigint, accessLevel: AccessLevel): Promise<MemberJson> {
    const user = await this.prisma.user.findUnique({ where: { id: userId }, select: { id: true, username: true } });
    if (!user) throw new NotFoundError(`User ${userId} not found.`, 'user_not_found');
    try {
      const member = await this.prisma.projectMember.create({ data: { project_id: projectId, user_id: userId, access_level: accessLevel } });
      return { project_id: Number(member.project_id), user_id: Number(member.user_id), username: user.username, access_level: member.access_level };
    } catch (error) {
      if (isUniqueViolation(error)) throw new ConflictError(`User ${userId} is already a member of the project.`, 'already_member');
      throw error;
    }
  }

  /** The caller's access to a project, or null when the project is unknown or the caller is not a member. */
  async accessOf(principal: Principal, projectId: bigint): Promise<ProjectAccess | null> {
    if (principal.kind === 'admin') {
      const project = await this.prisma.project.findUnique({ where: { id: projectId }, select: { tier: true } });
      return project ? { projectId, tier: project.tier, accessLevel: 'owner' } : null;
    }
    const member = await this.prisma.projectMember.findUnique({
      where: { project_id_user_id: { project_id: projectId, user_id: principal.userId } },
      select: { access_level: true, project: { select: { tier: true } } },
    });
    return member ? { projectId, tier: member.project.tier, accessLevel: member.access_level } : null;
  }
}
