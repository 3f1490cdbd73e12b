import { randomUUID } from 'node:crypto';

/**
 * CloudEvents 1.0 attributes of a record of a public topic, in Kafka's binary content mode: each
 * attribute is a header (`ce_<name>`), the record's value is the event's data as it always was, and
 * `content-type` says how to read it. A consumer routes on `ce_type` and deduplicates on `ce_id`
 * without parsing the value (docs/consuming-events.md). A type, not an interface, so that it is a
 * record of strings as Kafka headers are.
 */
export type CloudEventHeaders = {
  ce_specversion: typeof CLOUD_EVENTS_SPEC_VERSION;
  /** Unique per event and the same on every copy of it (a relay's re-publish after a fault included). */
  ce_id: string;
  /** `/projects/<project_id>`: the project the event is about. */
  ce_source: string;
  /** The event's `type` (`alert.created`). */
  ce_type: string;
  /** The event's `occurred_at`. */
  ce_time: string;
  'content-type': 'application/json';
};

export const CLOUD_EVENTS_SPEC_VERSION = '1.0';

/** The header names, in the order they are written. */
export const CLOUD_EVENT_HEADER_NAMES = ['ce_specversion', 'ce_id', 'ce_source', 'ce_type', 'ce_time', 'content-type'] as const satisfies ReadonlyArray<keyof CloudEventHeaders>;

/** What every public event carries, which its CloudEvents attributes are made of. */
export interface ProjectEventAttributes {
  type: string;
  project_id: number;
  occurred_at: string;
}

/**
 * The headers of a project's event. `id` is made once, where the record is written (its outbox row
 * keeps it), so that every publication of the record carries the same one.
 */
export function projectEventHeaders(event: ProjectEventAttributes, id: string = randomUUID()): CloudEventHeaders {
  return {
    ce_specversion: CLOUD_EVENTS_SPEC_VERSION,
    ce_id: id,
    ce_source: `/projects/${event.project_id}`,
    ce_type: event.type,
    ce_time: event.occurred_at,
    'content-type': 'application/json',
  };
}
