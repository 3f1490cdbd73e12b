/** One shard of a sharded outbox: the rows whose key hash is `index` modulo `count`. */
export interface OutboxShard {
  index: number;
  count: number;
}

/** A shard's suffix in names that must differ per shard and per shard count (transactional ids, position groups). */
export function shardName(shard: OutboxShard): string {
  return `shard-${shard.index}-of-${shard.count}`;
}

/** How many of `shardCount` shards the member of rank `rank` (0-based) among `memberCount` leads: a fair share, the remainder to the first ranks. */
export function fairShare(shardCount: number, memberCount: number, rank: number): number {
  if (rank < 0 || rank >= memberCount) return 0;
  return Math.floor(shardCount / memberCount) + (rank < shardCount % memberCount ? 1 : 0);
}

/**
 * The shards the live relay instance `me` should lead, given every live instance (`members`, any
 * order): shard s goes to the member of rank s mod L among the L members sorted by id, so each leads
 * floor(shardCount / L) shards and the first shardCount mod L one more, and every shard has exactly
 * one owner as long as the members agree on the list. An instance that is not among the members leads none.
 */
export function assignedShards(shardCount: number, members: readonly number[], me: number): number[] {
  const sorted = [...new Set(members)].sort((a, b) => a - b);
  const rank = sorted.indexOf(me);
  if (rank < 0) return [];
  const shards: number[] = [];
  for (let shard = rank; shard < shardCount; shard += sorted.length) shards.push(shard);
  return shards;
}
