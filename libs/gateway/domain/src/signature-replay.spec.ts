import { isSignatureReplay, REPLAY_CLOCK_MARGIN_MS, replayCacheTtlMs, signatureReplayKey } from './signature-replay';

describe('signature replay rules', () => {
  it('calls a second use of a signature a replay unless it repeats the Idempotency-Key the first use came with', () => {
    expect(isSignatureReplay({ idempotencyKey: null }, undefined)).toBe(true);
    // The signature does not cover the header: a replay that adds one is still a replay.
    expect(isSignatureReplay({ idempotencyKey: null }, 'notification-1')).toBe(true);
    expect(isSignatureReplay({ idempotencyKey: 'notification-1' }, undefined)).toBe(true);
    expect(isSignatureReplay({ idempotencyKey: 'notification-1' }, 'notification-2')).toBe(true);
    expect(isSignatureReplay({ idempotencyKey: 'notification-1' }, 'notification-1')).toBe(false);
  });

  it('keeps a signature for the rest of its freshness window plus a margin for other instances clocks', () => {
    const now = 1_000_000;
    expect(replayCacheTtlMs(now + 300_000, now)).toBe(300_000 + REPLAY_CLOCK_MARGIN_MS);
    expect(replayCacheTtlMs(now + 0.5, now)).toBe(1 + REPLAY_CLOCK_MARGIN_MS);
    expect(replayCacheTtlMs(now - 10 * REPLAY_CLOCK_MARGIN_MS, now)).toBe(1);
  });

  it('keys a signature by its integration and its digest in lower case', () => {
    const digest = 'AB'.repeat(32);
    expect(signatureReplayKey('7', digest)).toBe(signatureReplayKey('7', digest.toLowerCase()));
    expect(signatureReplayKey('7', digest)).not.toBe(signatureReplayKey('8', digest));
  });
});
