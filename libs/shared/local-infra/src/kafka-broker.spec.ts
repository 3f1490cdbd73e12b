import { replicationOf, serverProperties } from './kafka-broker';

const property = (text: string, key: string) => new RegExp(`^${key.replace(/\./g, '\\.')}=(.*)$`, 'm').exec(text)?.[1];

describe('Kafka node settings', () => {
  it('replicates as far as the cluster allows: one node 1/1, two 2/1, three and more 3/2', () => {
    expect([1, 2, 3, 5].map(replicationOf)).toEqual([
      { replicationFactor: 1, minInsyncReplicas: 1 },
      { replicationFactor: 2, minInsyncReplicas: 1 },
      { replicationFactor: 3, minInsyncReplicas: 2 },
      { replicationFactor: 3, minInsyncReplicas: 2 },
    ]);
  });

  it('gives each node of three its own id, listeners and folder, one quorum, and replication 3 with 2 in sync', () => {
    const cluster = [
      { port: 7001, controllerPort: 7101 },
      { port: 7002, controllerPort: 7102 },
      { port: 7003, controllerPort: 7103 },
    ];
    const second = serverProperties({ ...cluster[1], nodeId: 2, dataDir: '/tmp/cluster/node-2', cluster });
    expect(property(second, 'node.id')).toBe('2');
    expect(property(second, 'controller.quorum.voters')).toBe('1@127.0.0.1:7101,2@127.0.0.1:7102,3@127.0.0.1:7103');
    expect(property(second, 'listeners')).toBe('PLAINTEXT://127.0.0.1:7002,CONTROLLER://127.0.0.1:7102');
    expect(property(second, 'log.dirs')).toBe('/tmp/cluster/node-2/kraft-combined-logs');
    for (const key of ['default.replication.factor', 'offsets.topic.replication.factor', 'transaction.state.log.replication.factor']) expect(property(second, key)).toBe('3');
    for (const key of ['min.insync.replicas', 'transaction.state.log.min.isr']) expect(property(second, key)).toBe('2');
    expect(property(second, 'broker.session.timeout.ms')).toBe('4000');
  });

  it('keeps a single node to itself: one voter, replication 1, the default session timeout', () => {
    const single = serverProperties({ port: 7001, controllerPort: 7101, nodeId: 1, dataDir: '/tmp/one', cluster: [{ port: 7001, controllerPort: 7101 }] });
    expect(property(single, 'controller.quorum.voters')).toBe('1@127.0.0.1:7101');
    expect(property(single, 'default.replication.factor')).toBe('1');
    expect(property(single, 'min.insync.replicas')).toBe('1');
    expect(property(single, 'log.dirs')).toBe('/tmp/one/kraft-combined-logs');
    expect(property(single, 'broker.session.timeout.ms')).toBeUndefined();
  });
});
