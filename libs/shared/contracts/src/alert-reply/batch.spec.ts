import { decodeMessage } from '../decode-message';
import { alertReplyMessages } from './batch';
import { AlertReplyBatchValue, AlertReplyValue } from './value';

const reply = (requestId: number, replyTo: string, title = 'New: Alert'): AlertReplyValue => ({
  request_id: `00000000-0000-4000-8000-${String(requestId).padStart(12, '0')}`,
  reply_to: replyTo,
  status: 'processed',
  alerts: [{ iid: requestId, title }],
});

const decoded = (value: Buffer) => decodeMessage(AlertReplyBatchValue, value).replies;

describe('alertReplyMessages', () => {
  it('writes one message per gateway instance, keyed by it, with its replies in order', () => {
    const replies = [reply(1, 'gw-a'), reply(2, 'gw-b'), reply(3, 'gw-a'), reply(4, 'gw-a')];

    const messages = alertReplyMessages(replies, 1_000_000);

    expect(messages.map((message) => message.key)).toEqual(['gw-a', 'gw-b']);
    expect(decoded(messages[0].value)).toEqual([replies[0], replies[2], replies[3]]);
    expect(decoded(messages[1].value)).toEqual([replies[1]]);
  });

  it('encodes exactly what JSON.stringify writes for the batch value', () => {
    const replies = [reply(1, 'gw-a', 'Ünïcödé "quoted"'), reply(2, 'gw-a')];

    const [message] = alertReplyMessages(replies, 1_000_000);

    expect(message.value.toString()).toBe(JSON.stringify({ replies }));
  });

  it('splits an instance’s replies where a message would exceed the size limit, each message within it', () => {
    const replies = Array.from({ length: 10 }, (_, index) => reply(index + 1, 'gw-a', 'x'.repeat(100)));
    const oneReplyBytes = Buffer.byteLength(JSON.stringify({ replies: [replies[0]] }));
    const maxBytes = 3 * oneReplyBytes;

    const messages = alertReplyMessages(replies, maxBytes);

    expect(messages.length).toBeGreaterThan(1);
    expect(messages.every((message) => message.key === 'gw-a' && message.value.length <= maxBytes)).toBe(true);
    expect(messages.flatMap((message) => decoded(message.value))).toEqual(replies);
  });

  it('sends a single reply larger than the limit alone', () => {
    const replies = [reply(1, 'gw-a'), reply(2, 'gw-a', 'y'.repeat(500)), reply(3, 'gw-a')];

    const messages = alertReplyMessages(replies, 300);

    expect(messages.map((message) => decoded(message.value).map((value) => value.alerts[0].iid))).toEqual([[1], [2], [3]]);
  });

  it('writes nothing for no replies', () => {
    expect(alertReplyMessages([], 1_000)).toEqual([]);
  });
});
