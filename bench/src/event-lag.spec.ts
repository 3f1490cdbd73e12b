import { eventFigures } from './event-lag';

describe('eventFigures', () => {
  const window = { startMs: 10_000, endMs: 12_000 };

  it('counts the records published within the window, per second', () => {
    const events = [
      { occurredAtMs: 9_000, publishedAtMs: 9_990 },
      { occurredAtMs: 9_995, publishedAtMs: 10_000 },
      { occurredAtMs: 11_000, publishedAtMs: 11_999 },
      { occurredAtMs: 11_990, publishedAtMs: 12_000 },
    ];
    const figures = eventFigures(events, window);
    expect(figures.published).toBe(2);
    expect(figures.perSecond).toBe(1);
  });

  it("measures the lag of the events of changes made within the window, those published after it included", () => {
    const events = [
      { occurredAtMs: 9_000, publishedAtMs: 10_500 },
      ...Array.from({ length: 99 }, (_, n) => ({ occurredAtMs: 10_000 + n, publishedAtMs: 10_000 + n + 5 })),
      { occurredAtMs: 11_999, publishedAtMs: 12_999 },
    ];
    const figures = eventFigures(events, window);
    expect(figures.lagged).toBe(100);
    expect(figures.lagP50Ms).toBe(5);
    expect(figures.lagP99Ms).toBe(5);
    expect(eventFigures([...events, { occurredAtMs: 11_999, publishedAtMs: 13_999 }], window).lagP99Ms).toBe(1_000);
  });

  it('gives NaN lags and no events for an empty window', () => {
    expect(eventFigures([], window)).toEqual({ published: 0, perSecond: 0, lagged: 0, lagP50Ms: NaN, lagP99Ms: NaN });
  });
});
