import { serverTimingHeader } from './server-timing';

describe('serverTimingHeader', () => {
  it('splits an answered request into the gateway, Kafka, delivery and the processor', () => {
    expect(
      serverTimingHeader({ receivedMs: 100, handedOnMs: 100.4, publishedMs: 102.4, repliedMs: 110.4, replied: true, storedMs: 5, answeredMs: 110.5 }),
    ).toBe('receive;dur=0.40, publish;dur=2.00, deliver;dur=3.00, store;dur=5.00, total;dur=10.50');
  });

  it('says how long a 202 waited for the reply that did not come', () => {
    expect(serverTimingHeader({ receivedMs: 0, handedOnMs: 1, publishedMs: 3, repliedMs: 10_003, replied: false, answeredMs: 10_003 })).toBe(
      'receive;dur=1.00, publish;dur=2.00, wait;dur=10000.00, total;dur=10003.00',
    );
  });

  it('gives a reply without the processor time as delivery, and never a store longer than the wait', () => {
    expect(serverTimingHeader({ receivedMs: 0, handedOnMs: 1, publishedMs: 2, repliedMs: 6, replied: true, answeredMs: 6 })).toBe(
      'receive;dur=1.00, publish;dur=1.00, deliver;dur=4.00, total;dur=6.00',
    );
    expect(serverTimingHeader({ receivedMs: 0, handedOnMs: 1, publishedMs: 2, repliedMs: 6, replied: true, storedMs: 4.2, answeredMs: 6 })).toBe(
      'receive;dur=1.00, publish;dur=1.00, deliver;dur=0.00, store;dur=4.00, total;dur=6.00',
    );
  });

  it('names only what a refused request reached', () => {
    expect(serverTimingHeader({ receivedMs: 5, answeredMs: 5.25 })).toBe('total;dur=0.25');
    expect(serverTimingHeader({ receivedMs: 5, handedOnMs: 6, answeredMs: 6.5 })).toBe('receive;dur=1.00, total;dur=1.50');
  });
});
