import type { AccessLevel } from '@alert-ingestion/contracts';
import { ServiceStack } from '@alert-ingestion/testing';

/** A user made for a spec through the management API: id, username and personal access token. */
export interface StackMember {
  id: number;
  username: string;
  token: string;
}

/** One user per name (`<name>-<project id>`), each a member of the project at the role given. */
export async function stackMembers<Name extends string>(stack: ServiceStack, projectId: number, roles: Record<Name, AccessLevel>): Promise<Record<Name, StackMember>> {
  const members = {} as Record<Name, StackMember>;
  for (const [name, level] of Object.entries(roles) as Array<[Name, AccessLevel]>) {
    const user = await stack.management<StackMember>('POST', '/users', { username: `${name}-${projectId}` });
    await stack.management('POST', `/projects/${projectId}/members`, { user_id: user.id, access_level: level });
    members[name] = user;
  }
  return members;
}
