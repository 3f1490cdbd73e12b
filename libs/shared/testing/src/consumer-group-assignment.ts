import { Admin, AssignerProtocol } from 'kafkajs';

/** A consumer group's state and who consumes which partitions of `topic`, by client id (members sharing a client id are merged). */
export async function consumerGroupAssignment(admin: Admin, groupId: string, topic: string): Promise<{ state: string; owners: Map<string, number[]> }> {
  const {
    groups: [group],
  } = await admin.describeGroups([groupId]);
  const owners = new Map<string, number[]>();
  for (const member of group.members) {
    const decoded = member.memberAssignment.length === 0 ? null : AssignerProtocol.MemberAssignment.decode(member.memberAssignment);
    owners.set(member.clientId, [...(owners.get(member.clientId) ?? []), ...(decoded?.assignment[topic] ?? [])].sort((a, b) => a - b));
  }
  return { state: group.state, owners };
}
