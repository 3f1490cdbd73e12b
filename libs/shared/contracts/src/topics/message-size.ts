/**
 * Sizes that must agree end to end, derived from the receiver's body limit: whatever the gateway
 * accepts fits alerts.raw.v1, and the event of any alert fits alerts.events.v1.
 */

/** The receiver's body limit (CONTRACT.md "Receiving alerts": larger bodies get 413). */
export const MAX_ALERT_BODY_BYTES = 1024 * 1024;

/** The receiver's nesting limit (CONTRACT.md: deeper bodies get 400). */
export const MAX_ALERT_NESTING_DEPTH = 100;

/**
 * `max.message.bytes` of every topic: the largest record batch the broker accepts. Twice the body
 * limit: a raw alert carries the body verbatim in a small envelope, and an alert event carries the
 * payload re-serialised, which can be longer than it came (`1e9` becomes `1000000000`).
 */
export const MAX_MESSAGE_BYTES = 2 * MAX_ALERT_BODY_BYTES;

/** Room kept in a record batch for keys, headers and the batch's own framing. */
export const RECORD_OVERHEAD_BYTES = 16 * 1024;

/** The largest value a producer may put in one record batch so that the broker takes it. */
export const MAX_RECORD_BATCH_VALUE_BYTES = MAX_MESSAGE_BYTES - RECORD_OVERHEAD_BYTES;

/**
 * The largest JSON body of the management API (integration-config). Its biggest legitimate bodies
 * carry a payload of up to MAX_ALERT_BODY_BYTES of JSON text inside a JSON string (a test alert, a
 * preview, a sample payload), where escaping makes it longer: JSON.stringify doubles every quote and
 * backslash, and a client that escapes non-ASCII writes six bytes for a two-byte character. Three
 * times the receiver's limit covers both.
 */
export const MAX_MANAGEMENT_BODY_BYTES = 3 * MAX_ALERT_BODY_BYTES;

/**
 * The largest JSON body of the other HTTP APIs (the alerts API's status change; the gateway's routes
 * besides the receiving URL): a few fields at most. body-parser's own default.
 */
export const MAX_API_BODY_BYTES = 100 * 1024;

/** The deepest JSON body any HTTP API takes: the receiver's nesting limit. */
export const MAX_API_NESTING_DEPTH = MAX_ALERT_NESTING_DEPTH;
