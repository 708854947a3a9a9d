/**
 * What a failed fetch is, read from what the crawl records of it (the error's text,
 * `CODE: message`, or the HTTP status): `transient` when trying again later may
 * succeed (the name did not resolve, the connection was refused, reset or timed
 * out, robots.txt could not be read, the server answered 5xx or 429), `permanent`
 * when the same request would fail the same way (another 4xx, a robots.txt rule, a
 * refused address, a rejected TLS certificate, a URL out of scope or malformed, a redirect loop). And, for
 * people, the cause in a few words with what to check. Pure.
 */

/** Whether trying the same URL again later may succeed. */
export type FailureClass = 'transient' | 'permanent';

/** The kind of cause, the unit failures are grouped by when the crawl says why it stops. */
export type FailureKind =
  /** The host name did not resolve (`FC_ERR_DNS`). */
  | 'dns'
  /** The connection was refused (ECONNREFUSED). */
  | 'refused'
  /** No connection within the connect timeout. */
  | 'connect-timeout'
  /** No response (headers, or the whole body) in time. */
  | 'timeout'
  /** The connection failed otherwise (reset, unreachable network, TLS). */
  | 'network'
  /** The host stayed unreachable and its URLs were not sent (`FC_ERR_HOST_UNREACHABLE`). */
  | 'unreachable'
  /** The server's TLS certificate was rejected (`FC_ERR_TLS_CERT`): permanent. */
  | 'tls'
  /** robots.txt could not be read (5xx, 429, network error): its site waits. */
  | 'robots-unreachable'
  /** An HTTP error status. */
  | 'http'
  /** Anything else: a robots.txt rule, a refused address, a bad URL, too many redirects… */
  | 'other';

/** A failed fetch as the crawl records it. */
export interface FailureInput {
  /** The error's text, `CODE: message` (`FC_ERR_DNS: …`) or `HTTP 503`; null when only a status is known. */
  error: string | null;
  /** The HTTP status, when a response came. */
  status: number | null;
  /** The URL fetched: names the host when the message does not. */
  url?: string;
}

export interface FailureInfo {
  class: FailureClass;
  kind: FailureKind;
  /** The code (`FC_ERR_DNS`, `HTTP 503`), as `status` and `export` count errors. */
  code: string;
  /** Where it failed: the host, or `address:port` of a refused connection; '' when unknown. */
  where: string;
}

/** Error codes whose failures are transient. */
export const TRANSIENT_CODES: readonly string[] = [
  'FC_ERR_DNS',
  'FC_ERR_NETWORK',
  'FC_ERR_CONNECT_TIMEOUT',
  'FC_ERR_HEADERS_TIMEOUT',
  'FC_ERR_TOTAL_TIMEOUT',
  'FC_ERR_HOST_UNREACHABLE',
  'FC_ERR_ABORTED',
];

/** Whether an HTTP status is worth trying again later: 5xx and 429. */
export function isTransientStatus(status: number): boolean {
  return status === 429 || (status >= 500 && status <= 599);
}

const CODE_RE = /^(FC_ERR_[A-Z0-9_]+|HTTP \d{3})(?::|$)/;

function hostOfUrl(url: string | undefined): string {
  if (url === undefined) return '';
  try {
    return new URL(url).host;
  } catch {
    return '';
  }
}

/** Classifies a failed fetch. */
export function classifyFailure(f: FailureInput): FailureInfo {
  const text = f.error ?? (f.status === null ? '' : `HTTP ${f.status}`);
  const code = CODE_RE.exec(text)?.[1] ?? text;
  const host = hostOfUrl(f.url);
  if (f.status !== null && code.startsWith('HTTP ')) {
    const transient = isTransientStatus(f.status);
    return { class: transient ? 'transient' : 'permanent', kind: 'http', code, where: host };
  }
  const at = (kind: FailureKind, where = host): FailureInfo => ({
    class: kind === 'other' || kind === 'tls' ? 'permanent' : 'transient',
    kind,
    code,
    where,
  });
  switch (code) {
    case 'FC_ERR_DNS':
      return at('dns', /cannot resolve (\S+)/.exec(text)?.[1] ?? host);
    case 'FC_ERR_CONNECT_TIMEOUT':
      return at('connect-timeout');
    case 'FC_ERR_HEADERS_TIMEOUT':
    case 'FC_ERR_TOTAL_TIMEOUT':
      return at('timeout');
    case 'FC_ERR_NETWORK': {
      const refused = /ECONNREFUSED\s+((?:\[[0-9a-f:.]+\]|[^\s:]+):\d+)/i.exec(text);
      if (refused !== null) return at('refused', refused[1]);
      return at(/ECONNREFUSED/.test(text) ? 'refused' : 'network');
    }
    case 'FC_ERR_TLS_CERT':
      return at('tls');
    case 'FC_ERR_HOST_UNREACHABLE':
      return at(
        'unreachable',
        /FC_ERR_HOST_UNREACHABLE: (\S+) unreachable/.exec(text)?.[1] ?? host,
      );
    case 'FC_ERR_ABORTED':
      return at('network');
    case 'FC_ERR_ROBOTS_DISALLOWED':
      return /robots\.txt is unreachable/.test(text) ? at('robots-unreachable') : at('other');
    default:
      return at('other');
  }
}

/** Up to three places, then how many more. */
function places(where: readonly string[]): string {
  const known = where.filter((w) => w !== '');
  if (known.length === 0) return 'the hosts';
  const head = known.slice(0, 3).join(', ');
  return known.length > 3 ? `${head} and ${known.length - 3} more` : head;
}

/**
 * The cause of failures of one kind (and code) at `where`, in a few words with what to
 * check: `cannot resolve portal.test — is a --resolve missing?`.
 */
export function describeFailure(kind: FailureKind, code: string, where: readonly string[]): string {
  const at = places(where);
  switch (kind) {
    case 'dns':
      return `cannot resolve ${at} — is a --resolve missing?`;
    case 'refused':
      return `connection refused by ${at} — is the server running?`;
    case 'connect-timeout':
      return `no connection to ${at} within --connect-timeout-ms — is the host up?`;
    case 'timeout':
      return `${at} did not answer in time (${code}) — is the server overloaded?`;
    case 'network':
      return `the connection to ${at} failed (${code})`;
    case 'unreachable':
      return `${at} stayed unreachable`;
    case 'tls':
      return `the TLS certificate of ${at} was rejected (${code}) — expired, for another host, or signed by an authority not trusted (--ca-file)?`;
    case 'robots-unreachable':
      return `robots.txt of ${at} could not be read`;
    case 'http':
      return code === 'HTTP 429'
        ? `${at} answered HTTP 429 (too many requests) — is --delay-ms too short?`
        : `${at} answered ${code}`;
    default:
      return `${code} at ${at}`;
  }
}
