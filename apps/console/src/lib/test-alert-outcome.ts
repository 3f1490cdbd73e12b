import { CreatedAlert, TestAlertAnswer } from '@console/api/types';

/** What the test alert did to one alert. */
export interface TestAlertEffect {
  alert: CreatedAlert;
  /** `processed`: the alert could not be read, so what happened to it is not known. */
  action: 'created' | 'grouped' | 'resolved' | 'processed';
  /** How many payloads of the request went into this alert (an array may hold identical ones). */
  payloads: number;
  /** The alert's events counter after the test alert; null when not read. */
  events: number | null;
}

export interface TestAlertOutcome {
  /** Said first: "Test alert sent." and, when no alert is named, why. */
  summary: string;
  effects: TestAlertEffect[];
}

/**
 * What a test alert did, in words (spec 4.2: a success message). The answer names each alert a
 * payload created or grouped into, in request order (CONTRACT.md "Receiving alerts"); the alert as
 * read afterwards tells which: a resolved one was resolved by a recovery payload (one with an end
 * time), an events counter that the request's own payloads account for was created by it, a higher
 * one was grouped into. An empty 200 answer is a recovery alert that matched nothing (the console
 * refuses payloads that hold no alert before sending); a 202 is still being processed.
 */
export function describeTestAlert({ status, result, alerts }: TestAlertAnswer): TestAlertOutcome {
  if (status === 202) {
    return { summary: 'Test alert sent. The gateway accepted it; it is still being processed and appears in the alert list shortly.', effects: [] };
  }
  if (result.alerts.length === 0) {
    return {
      summary:
        'Test alert sent. Nothing matched: the payload has an end time, so it only resolves an open alert with the same fingerprint, and there is none. No alert was created.',
      effects: [],
    };
  }
  const payloads = new Map<number, { alert: CreatedAlert; count: number }>();
  for (const alert of result.alerts) {
    const seen = payloads.get(alert.iid);
    if (seen) seen.count++;
    else payloads.set(alert.iid, { alert, count: 1 });
  }
  const effects = [...payloads.values()].map(({ alert, count }): TestAlertEffect => {
    const read = alerts.find((candidate) => candidate.iid === alert.iid);
    if (!read) return { alert, action: 'processed', payloads: count, events: null };
    const action = read.status === 'resolved' ? 'resolved' : read.events <= count ? 'created' : 'grouped';
    return { alert: { iid: read.iid, title: read.title }, action, payloads: count, events: read.events };
  });
  return { summary: 'Test alert sent.', effects };
}

/** The words around the alert's link: [before, after]. */
export function effectWords(effect: TestAlertEffect): [string, string] {
  const events = effect.events === null ? '' : `: ${effect.events} ${effect.events === 1 ? 'event' : 'events'} now`;
  switch (effect.action) {
    case 'created': {
      const others = effect.payloads - 1;
      if (others === 0) return ['Created alert', '.'];
      const grouped = others === 1 ? 'the 2nd payload' : `${others} more payloads`;
      return ['Created alert', `, and grouped ${grouped} into it${events}.`];
    }
    case 'grouped':
      return [effect.payloads === 1 ? 'Grouped into alert' : `Grouped ${effect.payloads} payloads into alert`, `${events}.`];
    case 'resolved':
      return ['Resolved alert', '.'];
    default:
      return ['Processed into alert', '.'];
  }
}
