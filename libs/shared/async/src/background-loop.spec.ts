import { BackgroundLoop } from './background-loop';

describe('BackgroundLoop', () => {
  it('runs once however often it is started, and stop() ends its sleep and waits for it to return', async () => {
    const rounds: string[] = [];
    const loop: BackgroundLoop = new BackgroundLoop(async () => {
      while (!loop.stopping) {
        rounds.push('round');
        await loop.sleep(60_000);
      }
      rounds.push('returned');
    });
    loop.start();
    loop.start();
    expect(loop.stopping).toBe(false);
    const started = Date.now();
    await loop.stop();
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(rounds).toEqual(['round', 'returned']);
    expect(loop.stopping).toBe(true);
  });

  it('starts again after a stop, with a signal that is not aborted', async () => {
    const signals: AbortSignal[] = [];
    const loop = new BackgroundLoop(async (signal) => void signals.push(signal));
    loop.start();
    await loop.stop();
    loop.start();
    expect(loop.stopping).toBe(false);
    await loop.stop();
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
  });
});
