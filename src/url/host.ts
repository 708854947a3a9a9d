import { getDomain } from 'tldts';

/**
 * Host name of an http(s) URL, lower-case, without port (IPv6 in brackets, as in
 * `URL.hostname`), or `null` when the URL cannot be parsed. Canonical URLs take a
 * fast path that does not run the URL parser.
 */
export function hostOf(url: string): string | null {
  const fast = plainHost(url);
  if (fast !== null) return fast;
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.hostname : null;
  } catch {
    return null;
  }
}

/**
 * The host of `http(s)://host[:port]...` when the authority holds only lower-case
 * letters, digits, `-` and `.` (and a port), and the last label does not start with
 * a digit (WHATWG reads such hosts as IPv4 numbers); otherwise `null`.
 */
function plainHost(url: string): string | null {
  const start = url.startsWith('http://') ? 7 : url.startsWith('https://') ? 8 : -1;
  if (start < 0) return null;
  const n = url.length;
  let colon = -1;
  let labelStart = start;
  let i = start;
  for (; i < n; i++) {
    const c = url.charCodeAt(i);
    if (c === 47 /* / */ || c === 63 /* ? */ || c === 35 /* # */) break;
    const digit = c >= 48 && c <= 57;
    if (colon >= 0) {
      if (!digit || i - colon > 5) return null;
    } else if (c === 58 /* : */) {
      colon = i;
    } else if (c === 46 /* . */) {
      labelStart = i + 1;
    } else if (!(digit || (c >= 97 && c <= 122) || c === 45) /* - */) {
      return null;
    }
  }
  const end = colon >= 0 ? colon : i;
  if (end === start) return null;
  const first = url.charCodeAt(labelStart < end ? labelStart : end - 1);
  if (first >= 48 && first <= 57) return null;
  if (colon >= 0 && i - colon > 1 && Number(url.slice(colon + 1, i)) > 65535) return null;
  return url.slice(start, end);
}

function isIpAddress(host: string): boolean {
  if (host.charCodeAt(0) === 91 /* [ */) return true;
  for (let i = 0; i < host.length; i++) {
    const c = host.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || c === 46)) return false;
  }
  return true;
}

const TLDTS_OPTIONS = { allowPrivateDomains: true, extractHostname: false } as const;

/**
 * Registrable domain ("eTLD+1") of a host name, from the Public Suffix List,
 * private suffixes included (so `alice.github.io` and `bob.github.io` are
 * different domains). Names under an unlisted suffix are treated as if it were
 * one label: `a.b.test` → `b.test`. IP addresses and single-label hosts
 * (`localhost`) are their own domain.
 */
export function registrableDomainOfHost(host: string): string {
  if (isIpAddress(host)) return host;
  return getDomain(host, TLDTS_OPTIONS) ?? host;
}

/** Registrable domain of a URL's host (see {@link registrableDomainOfHost}), or `null` when the URL is invalid. */
export function registrableDomain(url: string): string | null {
  const host = hostOf(url);
  return host === null ? null : registrableDomainOfHost(host);
}
