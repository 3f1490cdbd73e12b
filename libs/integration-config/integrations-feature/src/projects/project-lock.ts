import { AccessErrors } from '@alert-ingestion/access';
import { ProjectTier } from '@alert-ingestion/contracts';
import { ConfigTransaction, ProjectsRepository } from '@alert-ingestion/integrations-data';

/**
 * Locks the project row for the rest of the transaction and returns its tier (404 when there is no
 * such project): changes that span a project (its integrations, its owners) are serialised per project.
 */
export async function lockProject(projects: ProjectsRepository, tx: ConfigTransaction, projectId: bigint): Promise<ProjectTier> {
  const tier = await projects.lock(tx, projectId);
  if (tier === null) throw AccessErrors.projectNotFound();
  return tier;
}
