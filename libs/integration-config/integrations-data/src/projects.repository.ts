import { AccessLevel, ProjectTier } from '@alert-ingestion/contracts';
import { ConfigDatabase, ConfigTransaction } from './config-database';

/** A project as stored (`projects`). */
export interface ProjectRow {
  id: bigint;
  path: string;
  tier: ProjectTier;
}

/** A project with the caller's role in it (null: not a member). */
export interface ProjectWithAccessRow extends ProjectRow {
  access_level: AccessLevel | null;
}

/** A member as stored (`project_members`), with the member's username. */
export interface MemberRow {
  user_id: bigint;
  username: string;
  access_level: AccessLevel;
}

/** Which projects a list holds, and which page of them. */
export interface ProjectListFilter {
  /** Only the projects this user is a member of; null: every project. */
  memberId: bigint | null;
  /** An ILIKE pattern the path must match (already escaped); null: any path. */
  pathPattern: string | null;
  limit: number;
  offset: number;
}

const PROJECT_COLUMNS = { id: true, path: true, tier: true } as const;

/** `projects` and `project_members`. */
export class ProjectsRepository {
  constructor(private readonly database: ConfigDatabase) {}

  /** A taken path is a unique violation. */
  create(path: string, tier: ProjectTier): Promise<ProjectRow> {
    return this.database.client().project.create({ data: { path, tier }, select: PROJECT_COLUMNS });
  }

  findById(id: bigint): Promise<ProjectRow | null> {
    return this.database.client().project.findUnique({ where: { id }, select: PROJECT_COLUMNS });
  }

  /** One page of projects by path, with the member's role in each, and how many the filter holds in all. */
  async list(filter: ProjectListFilter): Promise<{ rows: ProjectWithAccessRow[]; total: number }> {
    const prisma = this.database.client();
    const memberId = filter.memberId === null ? null : filter.memberId.toString();
    const where = `($1::bigint IS NULL OR m.user_id IS NOT NULL) AND ($2::text IS NULL OR p.path ILIKE $2)`;
    const from = `FROM projects p LEFT JOIN project_members m ON m.project_id = p.id AND m.user_id = $1::bigint`;
    const [rows, counted] = await Promise.all([
      prisma.$queryRawUnsafe<ProjectWithAccessRow[]>(
        `SELECT p.id, p.path, p.tier::text AS tier, m.access_level::text AS access_level ${from} WHERE ${where}
         ORDER BY p.path LIMIT ${filter.limit} OFFSET ${filter.offset}`,
        memberId,
        filter.pathPattern,
      ),
      prisma.$queryRawUnsafe<Array<{ total: bigint }>>(`SELECT count(*) AS total ${from} WHERE ${where}`, memberId, filter.pathPattern),
    ]);
    return { rows, total: Number(counted[0].total) };
  }

  /**
   * Locks the project row for the rest of the transaction (SELECT ... FOR UPDATE) and returns its
   * tier, or null when there is no such project: changes that span a project (its integrations, its
   * owners) are serialised per project.
   */
  async lock(tx: ConfigTransaction, projectId: bigint): Promise<ProjectTier | null> {
    const rows = await this.database.client(tx).$queryRaw<Array<{ tier: ProjectTier }>>`SELECT tier::text AS tier FROM projects WHERE id = ${projectId} FOR UPDATE`;
    return rows.length === 0 ? null : rows[0].tier;
  }

  updateTier(tx: ConfigTransaction, projectId: bigint, tier: ProjectTier): Promise<ProjectRow> {
    return this.database.client(tx).project.update({ where: { id: projectId }, data: { tier }, select: PROJECT_COLUMNS });
  }

  /** The project's members, in no particular order. */
  async listMembers(projectId: bigint): Promise<MemberRow[]> {
    const members = await this.database.client().projectMember.findMany({
      where: { project_id: projectId },
      select: { user_id: true, access_level: true, user: { select: { username: true } } },
    });
    return members.map((member) => ({ user_id: member.user_id, username: member.user.username, access_level: member.access_level }));
  }

  /** A member already present is a unique violation. */
  async addMember(projectId: bigint, userId: bigint, accessLevel: AccessLevel): Promise<Omit<MemberRow, 'username'>> {
    return this.database.client().projectMember.create({
      data: { project_id: projectId, user_id: userId, access_level: accessLevel },
      select: { user_id: true, access_level: true },
    });
  }

  async findMember(tx: ConfigTransaction, projectId: bigint, userId: bigint): Promise<MemberRow | null> {
    const member = await this.database.client(tx).projectMember.findUnique({
      where: { project_id_user_id: { project_id: projectId, user_id: userId } },
      select: { user_id: true, access_level: true, user: { select: { username: true } } },
    });
    return member === null ? null : { user_id: member.user_id, username: member.user.username, access_level: member.access_level };
  }

  countOwners(tx: ConfigTransaction, projectId: bigint): Promise<number> {
    return this.database.client(tx).projectMember.count({ where: { project_id: projectId, access_level: 'owner' } });
  }

  updateMember(tx: ConfigTransaction, projectId: bigint, userId: bigint, accessLevel: AccessLevel): Promise<Omit<MemberRow, 'username'>> {
    return this.database.client(tx).projectMember.update({
      where: { project_id_user_id: { project_id: projectId, user_id: userId } },
      data: { access_level: accessLevel },
      select: { user_id: true, access_level: true },
    });
  }

  async removeMember(tx: ConfigTransaction, projectId: bigint, userId: bigint): Promise<void> {
    await this.database.client(tx).projectMember.delete({ where: { project_id_user_id: { project_id: projectId, user_id: userId } } });
  }
}
