/**
 * Address guard: which IP addresses the fetcher refuses to connect to unless
 * allowed (`allowPrivateAddresses`, or a host mapped by `resolve`). Keeps pages
 * from steering the crawler into the machine's own or private networks. Pure.
 */
import { BlockList, isIP } from 'node:net';

const RANGES: Array<[label: string, network: string, prefix: number]> = [
  ['cloud metadata', '169.254.169.254', 32],
  ['cloud metadata', 'fd00:ec2::254', 128],
  ['unspecified', '0.0.0.0', 8],
  ['unspecified', '::', 128],
  ['loopback', '127.0.0.0', 8],
  ['loopback', '::1', 128],
  ['private', '10.0.0.0', 8],
  ['private', '172.16.0.0', 12],
  ['private', '192.168.0.0', 16],
  ['shared (CGNAT)', '100.64.0.0', 10],
  ['link-local', '169.254.0.0', 16],
  ['link-local', 'fe80::', 10],
  ['unique local', 'fc00::', 7],
  ['site-local', 'fec0::', 10],
  ['multicast', '224.0.0.0', 4],
  ['multicast', 'ff00::', 8],
  ['reserved', '240.0.0.0', 4],
];

const LISTS = RANGES.map(([label, network, prefix]) => {
  const list = new BlockList();
  const type = isIP(network) === 6 ? 'ipv6' : 'ipv4';
  list.addSubnet(network, prefix, type);
  return { label, list };
});

const ALL = new BlockList();
for (const [, network, prefix] of RANGES) {
  ALL.addSubnet(network, prefix, isIP(network) === 6 ? 'ipv6' : 'ipv4');
}

/** `[::1]` → `::1`; other host names unchanged. */
export function stripBrackets(host: string): string {
  return host.charCodeAt(0) === 91 /* [ */ ? host.slice(1, -1) : host;
}

/**
 * Why `ip` (an IP literal, IPv4-mapped IPv6 included) is refused, e.g. `loopback`;
 * undefined when it may be connected to. Non-IP input gives undefined.
 */
export function blockedAddressKind(ip: string): string | undefined {
  const v = isIP(ip);
  if (v === 0) return undefined;
  const type = v === 6 ? 'ipv6' : 'ipv4';
  if (!ALL.check(ip, type)) return undefined;
  for (const { label, list } of LISTS) if (list.check(ip, type)) return label;
  return 'reserved';
}

/** `localhost` and names under `.localhost` (RFC 6761) always mean this machine. */
export function isLocalhostName(host: string): boolean {
  const h = host.endsWith('.') ? host.slice(0, -1) : host;
  return h === 'localhost' || h.endsWith('.localhost');
}

/**
 * Why the host of a URL is refused before any DNS lookup (an IP literal in a
 * refused range, or a localhost name); undefined when only the addresses it
 * resolves to can tell.
 */
export function blockedHostKind(hostname: string): string | undefined {
  const c = hostname.charCodeAt(0);
  if (c === 91 /* [ */ || (c >= 48 && c <= 57)) return blockedAddressKind(stripBrackets(hostname));
  return isLocalhostName(hostname) ? 'loopback' : undefined;
}
