import { AlertReply } from '@alert-ingestion/contracts';
import { replyEndpointUrl, repliesByEndpoint } from './reply-hop';

const reply = (request_id: string): AlertReply.AlertReplyValue => ({ request_id, reply_to: 'g', status: 'processed', alerts: [] });

describe('replyEndpointUrl', () => {
  it('names the listener by host and port, an IPv6 address in brackets', () => {
    expect(replyEndpointUrl('10.42.0.17', 8090)).toBe('http://10.42.0.17:8090/alert-replies');
    expect(replyEndpointUrl('gateway', 8090)).toBe('http://gateway:8090/alert-replies');
    expect(replyEndpointUrl('fd00::17', 8090)).toBe('http://[fd00::17]:8090/alert-replies');
    expect(replyEndpointUrl('[fd00::17]', 8090)).toBe('http://[fd00::17]:8090/alert-replies');
  });
});

describe('repliesByEndpoint', () => {
  it('groups a batch by gateway instance (URL and token), each group in batch order', () => {
    const a = { url: 'http://10.0.0.1:8090/alert-replies', token: 'token-a' };
    const b = { url: 'http://10.0.0.2:8090/alert-replies', token: 'token-b' };
    // The same address with another token is another instance (a restarted pod that got the IP).
    const aRestarted = { ...a, token: 'token-a2' };
    const groups = repliesByEndpoint([
      { endpoint: a, value: reply('1') },
      { endpoint: b, value: reply('2') },
      { endpoint: { ...a }, value: reply('3') },
      { endpoint: aRestarted, value: reply('4') },
    ]);
    expect(groups.map((group) => [group.endpoint.token, group.replies.map((value) => value.request_id)])).toEqual([
      ['token-a', ['1', '3']],
      ['token-b', ['2']],
      ['token-a2', ['4']],
    ]);
  });
});
