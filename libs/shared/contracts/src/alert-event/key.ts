/** Key of an alert event: `<project_id>:<iid>`, so every event of one alert lands in one partition, in order. */
export type AlertEventKey = string;

export function alertEventKey(projectId: string, iid: number): AlertEventKey {
  return `${projectId}:${iid}`;
}
