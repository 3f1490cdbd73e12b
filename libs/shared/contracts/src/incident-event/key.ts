/** Key of an incident event: `<project_id>:<iid>`, so every event of one incident lands in one partition, in order. */
export type IncidentEventKey = string;

export function incidentEventKey(projectId: string, iid: number): IncidentEventKey {
  return `${projectId}:${iid}`;
}
