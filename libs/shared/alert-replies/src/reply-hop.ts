import { AlertReply } from '@alert-ingestion/contracts';

/** The path of a gateway's reply listener: the only route it serves. */
export const ALERT_REPLY_PATH = '/alert-replies';

/** The URL of a reply listener on `host` (a name, an IPv4 or an IPv6 address) and `port`. */
export function replyEndpointUrl(host: string, port: number): string {
  const name = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return `http://${name}:${port}${ALERT_REPLY_PATH}`;
}

/** One reply and the endpoint of the gateway instance waiting for it. */
export interface AddressedReply {
  endpoint: AlertReply.ReplyEndpointValue;
  value: AlertReply.AlertReplyValue;
}

/** The replies of a batch grouped by gateway instance (endpoint URL and token), each group in batch order. */
export function repliesByEndpoint(replies: readonly AddressedReply[]): Array<{ endpoint: AlertReply.ReplyEndpointValue; replies: AlertReply.AlertReplyValue[] }> {
  const groups = new Map<string, { endpoint: AlertReply.ReplyEndpointValue; replies: AlertReply.AlertReplyValue[] }>();
  for (const { endpoint, value } of replies) {
    const id = `${endpoint.url}\n${endpoint.token}`;
    const group = groups.get(id) ?? { endpoint, replies: [] };
    group.replies.push(value);
    groups.set(id, group);
  }
  return [...groups.values()];
}
