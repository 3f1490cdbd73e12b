import { setTimeout as sleep } from 'node:timers/promises';
import { withinTime } from './within-time';

describe('withinTime', () => {
  it('gives what the work settles with when it settles in time', async () => {
    await expect(withinTime(sleep(5, 'done'), 1_000, () => 'late')).resolves.toBe('done');
    await expect(withinTime(Promise.reject(new Error('failed')), 1_000, () => 'late')).rejects.toThrow('failed');
  });

  it('gives what onLate returns, or rejects with what it throws, when the work is late', async () => {
    await expect(withinTime(sleep(1_000, 'done'), 5, () => 'late')).resolves.toBe('late');
    await expect(
      withinTime(sleep(1_000), 5, () => {
        throw new Error('did not answer within 5 ms');
      }),
    ).rejects.toThrow('did not answer within 5 ms');
  });

  it('leaves no timer behind and ignores a rejection that comes after the limit', async () => {
    const work = sleep(20).then(() => Promise.reject(new Error('too late to matter')));
    await expect(withinTime(work, 5, () => false)).resolves.toBe(false);
    await sleep(30);
    const timers = process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout');
    await expect(withinTime(Promise.resolve(1), 60_000, () => 0)).resolves.toBe(1);
    expect(process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout')).toHaveLength(timers.length);
  });
});
