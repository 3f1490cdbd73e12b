import { BlockList, isIPv4, isIPv6 } from 'node:net';

// Where a webhook page may go: never to a private, loopback, link-local or otherwise internal
// address (a page's URL is a member's or a maintainer's, so it must not reach into the service's own
// network), unless the operator allows it (ESCALATION_WEBHOOK_ALLOW_PRIVATE). Checked on the address
// the name resolves to, the one connected to. Pure.

const INTERNAL = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
] as const) {
  INTERNAL.addSubnet(network, prefix, 'ipv6');
}

/** Whether an IP address is one a page must not reach: private, loopback, link-local, shared, multicast, reserved (IPv4-mapped IPv6 by its IPv4 address). */
export function isInternalAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return INTERNAL.check(mapped, 'ipv4');
  if (isIPv4(address)) return INTERNAL.check(address, 'ipv4');
  if (isIPv6(address)) return INTERNAL.check(address, 'ipv6');
  return true;
}
