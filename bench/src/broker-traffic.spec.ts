import { brokerConnections, brokerTraffic, parseSsSockets } from './broker-traffic';

/** Both ends of two connections to a broker on 9092 (`ss -tinpH state established '( sport = :9092 or dport = :9092 )'`), info lines shortened. */
const SS_OUTPUT = [
  '0      0      [::ffff:127.0.0.1]:43076 [::ffff:127.0.0.1]:9092 users:(("node",pid=501,fd=21))',
  '\t bbr wscale:1,1 rto:204 rtt:2.893/2.684 mss:50946 cwnd:18 bytes_sent:7983 bytes_acked:7984 bytes_received:7734 segs_out:42 segs_in:39',
  '0      0      [::ffff:127.0.0.1]:9092 [::ffff:127.0.0.1]:43076 users:(("java",pid=77,fd=172))',
  '\t bbr wscale:1,1 rto:216 rtt:14.006/15.085 mss:50953 cwnd:18 bytes_sent:7734 bytes_acked:7734 bytes_received:7983 segs_out:38 segs_in:42',
  '0      0      127.0.0.1:9092 127.0.0.1:50000',
  '\t cubic wscale:7,7 rto:204 rtt:0.05/0.025 bytes_acked:100 bytes_received:40 segs_out:4 segs_in:4',
  '',
].join('\n');

describe('parseSsSockets', () => {
  it('reads each socket with its addresses (IPv4-mapped as IPv4), its process when shown and its byte counters', () => {
    expect(parseSsSockets(SS_OUTPUT)).toEqual([
      { local: '127.0.0.1:43076', peer: '127.0.0.1:9092', pid: 501, bytesAcked: 7984, bytesReceived: 7734 },
      { local: '127.0.0.1:9092', peer: '127.0.0.1:43076', pid: 77, bytesAcked: 7734, bytesReceived: 7983 },
      { local: '127.0.0.1:9092', peer: '127.0.0.1:50000', pid: undefined, bytesAcked: 100, bytesReceived: 40 },
    ]);
  });

  it('keeps IPv6 addresses and reads nothing from an empty output', () => {
    expect(parseSsSockets('0 0 [::1]:9092 [::1]:40000\n\t bytes_acked:5 bytes_received:6\n')).toEqual([
      { local: '::1:9092', peer: '::1:40000', pid: undefined, bytesAcked: 5, bytesReceived: 6 },
    ]);
    expect(parseSsSockets('')).toEqual([]);
  });
});

describe('brokerConnections', () => {
  it("takes the broker's side of each connection and the pid of the client socket at its other end", () => {
    expect(brokerConnections(parseSsSockets(SS_OUTPUT), 9092)).toEqual([
      { id: '127.0.0.1:9092-127.0.0.1:43076', clientPid: 501, sent: 7734, received: 7983 },
      { id: '127.0.0.1:9092-127.0.0.1:50000', clientPid: undefined, sent: 100, received: 40 },
    ]);
  });
});

describe('brokerTraffic', () => {
  const kindOf = (pid: number | undefined) => (pid === 1 ? 'gateway' : pid === 2 ? 'processor' : 'other');

  it('sums what each connection carried in between by kind of client, counting a new connection from zero', () => {
    const before = [
      { id: 'a', clientPid: 1, sent: 1_000, received: 5_000 },
      { id: 'b', clientPid: 2, sent: 10_000, received: 100 },
    ];
    const after = [
      { id: 'a', clientPid: 1, sent: 1_500, received: 9_000 },
      { id: 'b', clientPid: 2, sent: 30_000, received: 300 },
      { id: 'c', clientPid: 1, sent: 200, received: 700 },
      { id: 'd', clientPid: undefined, sent: 50, received: 60 },
    ];
    const traffic = brokerTraffic(before, after, kindOf);
    expect(traffic.byKind).toEqual(
      new Map([
        ['gateway', { sent: 700, received: 4_700 }],
        ['processor', { sent: 20_000, received: 200 }],
        ['other', { sent: 50, received: 60 }],
      ]),
    );
    expect(traffic.closed).toBe(0);
  });

  it('counts the connections that closed in between instead of their bytes', () => {
    const traffic = brokerTraffic([{ id: 'a', clientPid: 1, sent: 10, received: 10 }], [], kindOf);
    expect(traffic).toEqual({ byKind: new Map(), closed: 1 });
  });
});
