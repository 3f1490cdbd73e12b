import { AccessErrors } from '@alert-ingestion/access';
import { ProjectTier } from '@alert-ingestion/contracts';
import { Prisma } from '@alert-ingestion/database';

/**
 * Locks the project row for the rest of the transaction (SELECT ... FOR UPDATE) and returns its
 * tier: changes that span a project (its integrations, its owners) are serialised per project.
 */
export async function lockProject(tx: Prisma.TransactionClient, projectId: bigint): Promise<ProjectTier> {
  const rows = await tx.$queryRaw<Array<{ tier: ProjectTier }>>`SELECT tier::text AS tier FROM projects WHERE id = ${projectId} FOR UPDATE`;
  if (rows.length === 0) throw AccessErrors.projectNotFound();
  return rows[0].tier;
}
