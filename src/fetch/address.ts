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
  ['IETF protocol assignments', '192.0.0.0', 24],
  ['documentation', '192.0.2.0', 24],
  ['documentation', '198.51.100.0', 24],
  ['documentation', '203.0.113.0', 24],
  ['documentation', '2001:db8::', 32],
  ['benchmarking', '198.18.0.0', 15],
  ['benchmarking', '2001:2::', 48],
  ['6to4 relay anycast', '192.88.99.0', 24],
  ['discard-only', '100::', 64],
  ['NAT64 local-use', '64:ff9b:1::', 48],
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

/** The eight 16-bit groups of a valid IPv6 literal (a zone `%…` ignored). */
export function ipv6Groups(ip: string): number[] {
  let s = ip;
  const zone = s.indexOf('%');
  if (zone >= 0) s = s.slice(0, zone);
  const lastColon = s.lastIndexOf(':');
  if (s.includes('.', lastColon)) {
    const [a = 0, b = 0, c = 0, d = 0] = s
      .slice(lastColon + 1)
      .split('.')
      .map(Number);
    s = `${s.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const words = (part: string) => (part === '' ? [] : part.split(':').map((w) => parseInt(w, 16)));
  const gap = s.indexOf('::');
  if (gap < 0) return words(s);
  const head = words(s.slice(0, gap));
  const tail = words(s.slice(gap + 2));
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 address an IPv6 address carries, and the form carrying it: IPv4-mapped
 * (`::ffff:a.b.c.d`), IPv4-compatible (`::a.b.c.d`, deprecated), NAT64 (`64:ff9b::/96`),
 * 6to4 (`2002::/16`) and Teredo (`2001::/32`, the client's address, inverted).
 */
export function embeddedIpv4(ip: string): { form: string; ipv4: string } | undefined {
  const g = ipv6Groups(ip);
  if (g.length !== 8) return undefined;
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = g;
  const zero4 = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (zero4 && g5 === 0xffff) return { form: 'IPv4-mapped', ipv4: v4(g6, g7) };
  if (zero4 && g5 === 0) return { form: 'IPv4-compatible', ipv4: v4(g6, g7) };
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) {
    return { form: 'NAT64', ipv4: v4(g6, g7) };
  }
  if (g0 === 0x2002) return { form: '6to4', ipv4: v4(g1 ?? 0, g2 ?? 0) };
  if (g0 === 0x2001 && g1 === 0) return { form: 'Teredo', ipv4: v4(g6 ^ 0xffff, g7 ^ 0xffff) };
  return undefined;
}

/** `[::1]` → `::1`; other host names unchanged. */
export function stripBrackets(host: string): string {
  return host.charCodeAt(0) === 91 /* [ */ ? host.slice(1, -1) : host;
}

/**
 * Why `ip` (an IP literal; an IPv6 address carrying an IPv4 one, see `embeddedIpv4`,
 * is judged by the IPv4 address) is refused, e.g. `loopback`;
 * undefined when it may be connected to. Non-IP input gives undefined.
 */
export function blockedAddressKind(ip: string): string | undefined {
  const v = isIP(ip);
  if (v === 0) return undefined;
  const type = v === 6 ? 'ipv6' : 'ipv4';
  if (ALL.check(ip, type)) {
    for (const { label, list } of LISTS) if (list.check(ip, type)) return label;
    return 'reserved';
  }
  if (v === 4) return undefined;
  // An IPv6 form that carries an IPv4 address is judged by that address.
  const inner = embeddedIpv4(ip);
  if (inner === undefined) return undefined;
  const kind = blockedAddressKind(inner.ipv4);
  return kind === undefined ? undefined : `${kind} (${inner.form} ${inner.ipv4})`;
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
