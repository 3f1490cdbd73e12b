import { AlertReply, decodeMessage } from '@alert-ingestion/contracts';

type AlertReplyValue = AlertReply.AlertReplyValue;

/** The UUID forms class-validator's IsUUID() accepts (versions 1-8, nil, max). */
const UUID = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}|0{8}-0{4}-0{4}-0{4}-0{12}|f{8}-f{4}-f{4}-f{4}-f{12})$/i;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Whether a parsed value satisfies every rule of AlertReplyValue. It may be stricter than the
 * contract class, never looser: a value it refuses is handed to the class, which has the last word.
 */
export function isValidAlertReply(value: unknown): value is AlertReplyValue {
  if (!isObject(value)) return false;
  const { request_id, reply_to, status, alerts, error } = value;
  if (typeof request_id !== 'string' || !UUID.test(request_id)) return false;
  if (typeof reply_to !== 'string') return false;
  if (status !== 'processed' && status !== 'rejected') return false;
  if (!Array.isArray(alerts)) return false;
  for (const alert of alerts) {
    if (!isObject(alert) || typeof alert['title'] !== 'string') return false;
    const iid = alert['iid'];
    if (typeof iid !== 'number' || !Number.isInteger(iid) || iid < 1) return false;
  }
  if (error !== undefined && error !== null) {
    if (!isObject(error) || typeof error['error'] !== 'string' || typeof error['message'] !== 'string') return false;
  }
  return true;
}

/**
 * Decodes a reply message. Replies are the gateway's hottest message (one per receive request),
 * and the class-based decoder (class-transformer + class-validator) costs about ten times a
 * JSON.parse; valid replies take this checked fast path, anything else goes through decodeMessage,
 * which throws a ContractViolationError naming every failing field.
 */
export function decodeAlertReply(value: Buffer | null): AlertReplyValue {
  if (value !== null) {
    let plain: unknown;
    try {
      plain = JSON.parse(value.toString('utf8'));
    } catch {
      plain = undefined;
    }
    if (isValidAlertReply(plain)) return plain;
  }
  return decodeMessage(AlertReply.AlertReplyValue, value);
}
