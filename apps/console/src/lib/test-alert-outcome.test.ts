import { describe, expect, it } from 'vitest';
import { Alert } from '@console/api/types';
import { describeTestAlert, effectWords } from './test-alert-outcome';

const alert = (iid: number, changes: Partial<Alert> = {}) => ({ iid, title: `Alert ${iid}`, status: 'triggered', events: 1, ...changes }) as Alert;
const answer = (iids: number[], alerts: Alert[], status = 200) => ({
  status,
  result: { message: 'the API’s own words', alerts: iids.map((iid) => ({ iid, title: `Alert ${iid}` })) },
  alerts,
});
const sentences = (outcome: ReturnType<typeof describeTestAlert>) =>
  outcome.effects.map((effect) => {
    const [before, after] = effectWords(effect);
    return `${before} #${effect.alert.iid}${after}`;
  });

describe('describeTestAlert', () => {
  it('tells created, grouped and resolved apart by the alerts as read after the test alert, in request order', () => {
    const outcome = describeTestAlert(
      answer([3, 1, 3, 4, 6], [alert(3, { events: 2 }), alert(1, { events: 7 }), alert(4, { status: 'resolved', events: 2 }), alert(6, { events: 4 })]),
    );
    expect(outcome.summary).toBe('Test alert sent.');
    expect(sentences(outcome)).toEqual([
      'Created alert #3, and grouped the 2nd payload into it: 2 events now.',
      'Grouped into alert #1: 7 events now.',
      'Resolved alert #4.',
      'Grouped into alert #6: 4 events now.',
    ]);
  });

  it('says several payloads were grouped into one alert, and names an alert it could not read without guessing', () => {
    expect(sentences(describeTestAlert(answer([2, 2, 2], [alert(2, { events: 9 })])))).toEqual(['Grouped 3 payloads into alert #2: 9 events now.']);
    expect(sentences(describeTestAlert(answer([5, 5, 5], [alert(5, { events: 3 })])))).toEqual(['Created alert #5, and grouped 2 more payloads into it: 3 events now.']);
    expect(sentences(describeTestAlert(answer([8], [])))).toEqual(['Processed into alert #8.']);
  });

  it('explains an empty answer and a 202 instead of naming alerts', () => {
    expect(describeTestAlert(answer([], []))).toEqual({ summary: expect.stringMatching(/^Test alert sent\. Nothing matched: the payload has an end time/), effects: [] });
    expect(describeTestAlert(answer([], [], 202))).toEqual({ summary: expect.stringMatching(/still being processed/), effects: [] });
  });
});
