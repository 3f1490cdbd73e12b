import { assignedShards, fairShare, shardName } from './shard-assignment';

describe('assignedShards', () => {
  function all(shardCount: number, members: number[]): number[][] {
    return members.map((member) => assignedShards(shardCount, members, member));
  }

  it('gives a lone instance every shard', () => {
    expect(assignedShards(8, [42], 42)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('spreads the shards by rank of id, whatever order the members come in', () => {
    expect(all(8, [30, 10, 20])).toEqual([
      [2, 5],
      [0, 3, 6],
      [1, 4, 7],
    ]);
  });

  it('gives every shard exactly one owner and each member floor(n / members) or one more, the remainder to the first ranks', () => {
    for (const shardCount of [1, 2, 7, 8, 16]) {
      for (const memberCount of [1, 2, 3, 5, 9]) {
        const members = Array.from({ length: memberCount }, (_, n) => 1000 - n * 7);
        const owned = all(shardCount, members);
        expect(owned.flat().sort((a, b) => a - b)).toEqual(Array.from({ length: shardCount }, (_, n) => n));
        const ranked = [...members].sort((a, b) => a - b);
        for (const [position, member] of members.entries()) {
          const rank = ranked.indexOf(member);
          expect(owned[position].length).toBe(fairShare(shardCount, memberCount, rank));
          expect(owned[position].length).toBe(Math.floor(shardCount / memberCount) + (rank < shardCount % memberCount ? 1 : 0));
        }
      }
    }
  });

  it('hands a departed member’s shards to the survivors', () => {
    expect(all(8, [1, 2, 3]).flat()).toHaveLength(8);
    expect(all(8, [1, 3])).toEqual([
      [0, 2, 4, 6],
      [1, 3, 5, 7],
    ]);
  });

  it('gives nothing to an instance that is not a member, and more members than shards leave some idle', () => {
    expect(assignedShards(8, [1, 2], 3)).toEqual([]);
    expect(all(2, [1, 2, 3])).toEqual([[0], [1], []]);
    expect(fairShare(2, 3, 2)).toBe(0);
  });
});

describe('shardName', () => {
  it('names the shard and the count, so a new count starts new positions', () => {
    expect(shardName({ index: 3, count: 8 })).toBe('shard-3-of-8');
  });
});
