/**
 * Connecting: `resolve` mappings (like curl's `--connect-to`) and the address
 * guard, as an undici connector.
 *
 * A mapped host is connected to the mapped address while the URL, the Host
 * header and the TLS server name stay those of the host. Any other host is
 * checked by the guard: IP literals before connecting, names on the addresses
 * DNS returns (in a custom lookup, so the check applies to the very address the
 * socket connects to).
 */
import { lookup as dnsLookup } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { rootCertificates } from 'node:tls';
import { buildConnector } from 'undici';
import { BlockedAddressError, type FocusCrawlError, ResolveSpecError } from '../errors/index.js';
import { blockedAddressKind, blockedHostKind, stripBrackets } from './address.js';
import { loadCaFile } from './options.js';

export interface ResolveRule {
  /** The spec as written. */
  spec: string;
  /** `a.test`, `*.test` or `*`. */
  host: string;
  address: string;
  port: number | undefined;
}

const HOST_NAME =
  /^(?:[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]*[a-z0-9_])?)*$/;
const PORT = /^[0-9]{1,5}$/;

function specError(spec: string, why: string): FocusCrawlError {
  return new ResolveSpecError(
    `invalid resolve spec ${JSON.stringify(spec)}: ${why} (expected HOST=IP[:PORT], e.g. "*.test=127.0.0.1:8080")`,
  );
}

/** Parses `HOST=IP[:PORT]`; HOST may be `*.domain` or `*`, IP an IPv4 or (bracketed) IPv6 literal. */
export function parseResolveSpec(spec: string): ResolveRule {
  const eq = spec.indexOf('=');
  if (eq < 0) throw specError(spec, 'no "="');
  let host = spec.slice(0, eq).trim().toLowerCase();
  const target = spec.slice(eq + 1).trim();
  if (host.endsWith('.')) host = host.slice(0, -1);
  const name = host.startsWith('*.') ? host.slice(2) : host;
  if (host !== '*' && !HOST_NAME.test(name))
    throw specError(spec, `bad host ${JSON.stringify(host)}`);

  let address: string;
  let portText: string | undefined;
  if (target.startsWith('[')) {
    const close = target.indexOf(']');
    if (close < 0) throw specError(spec, 'unclosed "["');
    address = target.slice(1, close);
    const rest = target.slice(close + 1);
    if (rest !== '') {
      if (!rest.startsWith(':')) throw specError(spec, `unexpected ${JSON.stringify(rest)}`);
      portText = rest.slice(1);
    }
    if (isIP(address) !== 6)
      throw specError(spec, `${JSON.stringify(address)} is not an IPv6 address`);
  } else if (isIP(target) === 6) {
    address = target;
  } else {
    const colon = target.lastIndexOf(':');
    address = colon < 0 ? target : target.slice(0, colon);
    if (colon >= 0) portText = target.slice(colon + 1);
    if (isIP(address) !== 4) {
      throw specError(spec, `${JSON.stringify(address)} is not an IP address`);
    }
  }
  let port: number | undefined;
  if (portText !== undefined) {
    port = Number(portText);
    if (!PORT.test(portText) || port < 1 || port > 65535) {
      throw specError(spec, `bad port ${JSON.stringify(portText)}`);
    }
  }
  return { spec, host, address, port };
}

/** Host → mapping. Exact names win over wildcards; among wildcards the longest suffix wins. */
export class HostResolver {
  readonly #exact = new Map<string, ResolveRule>();
  readonly #wildcards: Array<{ suffix: string; rule: ResolveRule }> = [];
  #any: ResolveRule | undefined;

  constructor(specs: readonly string[]) {
    for (const spec of specs) {
      const rule = parseResolveSpec(spec);
      if (rule.host === '*') this.#any = rule;
      else if (rule.host.startsWith('*.')) {
        this.#wildcards.push({ suffix: rule.host.slice(1), rule });
      } else this.#exact.set(rule.host, rule);
    }
    this.#wildcards.sort((a, b) => b.suffix.length - a.suffix.length);
  }

  get size(): number {
    return this.#exact.size + this.#wildcards.length + (this.#any === undefined ? 0 : 1);
  }

  /** The mapping for `hostname` (lower-case, brackets allowed), if any. */
  match(hostname: string): ResolveRule | undefined {
    if (this.size === 0) return undefined;
    const h = stripBrackets(hostname);
    const exact = this.#exact.get(h);
    if (exact !== undefined) return exact;
    for (const w of this.#wildcards) if (h.endsWith(w.suffix)) return w.rule;
    return this.#any;
  }
}

export interface ConnectorOptions {
  connectTimeoutMs: number;
  resolver: HostResolver;
  allowPrivateAddresses: boolean;
  /** DNS lookup (dns.lookup's signature). */
  lookup: LookupFunction | undefined;
  /** False: no DNS at all, every unmapped name fails as not found. */
  dns?: boolean;
  /** The TLS trust of connections (`tlsTrust`): Node's bundled roots when empty. */
  trust?: { ca?: string[] };
}

/**
 * The TLS trust of connections: `{}` (Node's bundled roots) without a CA file, else
 * `{ ca }` holding the bundled roots and the file's certificates (undici's and
 * tls.connect's `ca` replaces the roots, so they are given again).
 */
export function tlsTrust(caFile: string | undefined): { ca?: string[] } {
  if (caFile === undefined) return {};
  return { ca: [...rootCertificates, ...loadCaFile(caFile)] };
}

/** A lookup that finds nothing and asks nobody (`dns: false`). */
export const noDnsLookup: LookupFunction = (hostname, _options, callback) => {
  const err = Object.assign(
    new Error(`getaddrinfo ENOTFOUND ${hostname} (DNS is off: the host has no --resolve mapping)`),
    { code: 'ENOTFOUND', hostname },
  );
  process.nextTick(() => callback(err, '', 0));
};

function blocked(host: string, address: string, kind: string): FocusCrawlError {
  const what = host === address ? address : `${host} (${address})`;
  return new BlockedAddressError(
    `refusing to connect to ${what}: ${kind} address (set allowPrivateAddresses, or map the host with resolve)`,
  );
}

/** Wraps a DNS lookup so that refused addresses are dropped, failing when none is left. */
export function guardLookup(base: LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, options, (err, address, family) => {
      if (err) return callback(err, address, family);
      if (Array.isArray(address)) {
        const ok = address.filter((a) => blockedAddressKind(a.address) === undefined);
        if (ok.length > 0) return callback(null, ok);
        const first = address[0];
        const kind = first === undefined ? 'no' : blockedAddressKind(first.address)!;
        return callback(blocked(hostname, first?.address ?? '?', kind) as never, []);
      }
      const kind = blockedAddressKind(address);
      if (kind !== undefined) return callback(blocked(hostname, address, kind) as never, '', 0);
      callback(null, address, family);
    });
  };
}

/** The undici connector: resolve mappings, then the address guard; TLS trusts `trust`. */
export function createConnector(o: ConnectorOptions): buildConnector.connector {
  const lookup =
    o.dns === false ? noDnsLookup : (o.lookup ?? (dnsLookup as unknown as LookupFunction));
  const trust = o.trust ?? {};
  const direct = buildConnector({ timeout: o.connectTimeoutMs, lookup, ...trust });
  if (o.allowPrivateAddresses && o.resolver.size === 0) return direct;
  const guarded = o.allowPrivateAddresses
    ? direct
    : buildConnector({ timeout: o.connectTimeoutMs, lookup: guardLookup(lookup), ...trust });
  return (opts, callback) => {
    const host = stripBrackets(opts.hostname);
    const rule = o.resolver.match(host);
    if (rule !== undefined) {
      const servername = opts.servername || (isIP(host) === 0 ? host : undefined);
      const mapped: buildConnector.Options = {
        ...opts,
        hostname: rule.address,
        port: rule.port === undefined ? opts.port : String(rule.port),
      };
      if (servername !== undefined) mapped.servername = servername;
      return direct(mapped, callback);
    }
    if (!o.allowPrivateAddresses) {
      const kind = blockedHostKind(host);
      if (kind !== undefined) return callback(blocked(host, host, kind), null);
    }
    return guarded(opts, callback);
  };
}
