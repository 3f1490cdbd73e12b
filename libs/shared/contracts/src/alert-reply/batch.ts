import { AlertReplyKey } from './key';
import { AlertReplyValue } from './value';

/** A message of the reply topic, encoded: its key (the gateway instance) and its AlertReplyBatchValue. */
export interface AlertReplyMessage {
  key: AlertReplyKey;
  value: Buffer;
}

const OPEN = '{"replies":[';
const CLOSE = ']}';

/**
 * The replies of a batch as reply-topic messages: one per gateway instance (reply_to), in order of
 * each instance's first reply, holding its replies in the order given. A message that would exceed
 * `maxBytes` is split, so every message fits the topic (a single reply larger than that goes alone).
 * Each value is exactly `JSON.stringify({ replies })` of its replies, written without a second pass.
 */
export function alertReplyMessages(replies: readonly AlertReplyValue[], maxBytes: number): AlertReplyMessage[] {
  const open = new Map<AlertReplyKey, { parts: string[]; bytes: number }>();
  const messages: Array<{ key: AlertReplyKey; parts: string[] }> = [];
  for (const reply of replies) {
    const text = JSON.stringify(reply);
    const bytes = Buffer.byteLength(text);
    let current = open.get(reply.reply_to);
    if (current && current.bytes + 1 + bytes > maxBytes) current = undefined;
    if (!current) {
      current = { parts: [], bytes: OPEN.length + CLOSE.length - 1 };
      open.set(reply.reply_to, current);
      messages.push({ key: reply.reply_to, parts: current.parts });
    }
    current.parts.push(text);
    current.bytes += 1 + bytes;
  }
  return messages.map(({ key, parts }) => ({ key, value: Buffer.from(OPEN + parts.join(',') + CLOSE) }));
}
