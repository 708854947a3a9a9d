/**
 * Typed errors with stable codes. Every code listed here is documented in
 * docs/errors.md (a test keeps the two in step). Causes are wrapped with `{ cause }`.
 *
 * `retryable` tells the fetcher (and later the crawl engine) whether the same
 * request may succeed if tried again.
 */

export const ErrorCodes = {
  FC_ERR_INVALID_OPTION: 'An option has a wrong type, unit or value.',
  FC_ERR_INVALID_URL: 'A URL could not be parsed or uses a scheme other than http/https.',
  FC_ERR_OUT_OF_SCOPE: 'A URL (or a redirect target) lies outside the configured scope.',
  FC_ERR_ROBOTS_DISALLOWED: "The site's robots.txt disallows the URL for our user-agent.",
  FC_ERR_BLOCKED_ADDRESS:
    'The host resolves to a loopback, private, link-local or metadata address that was not allowed.',
  FC_ERR_DNS: 'The host name could not be resolved.',
  FC_ERR_TOO_MANY_REDIRECTS: 'More redirects than `maxRedirects` were followed.',
  FC_ERR_REDIRECT_LOOP: 'A redirect led back to a URL already visited in the same chain.',
  FC_ERR_CONNECT_TIMEOUT: 'The TCP/TLS connection was not established within `connectTimeoutMs`.',
  FC_ERR_HEADERS_TIMEOUT:
    'The first byte of the response did not arrive within `firstByteTimeoutMs`.',
  FC_ERR_TOTAL_TIMEOUT:
    'The whole request did not finish within `totalTimeoutMs`, or the whole fetch of a URL (all its tries) within `urlTimeoutMs`.',
  FC_ERR_NETWORK: 'The connection failed or was reset.',
  FC_ERR_PROTOCOL:
    'The response broke HTTP/1.1: malformed chunked framing, a body longer or shorter than its framing, conflicting Content-Length headers, or headers beyond the size limit.',
  FC_ERR_BODY_TOO_LARGE:
    'A page body reached the byte cap (`maxBytes`, after decompression): recorded as an error, not kept cut (a compression bomb ends so too).',
  FC_ERR_TLS_CERT:
    "The server's TLS certificate was rejected (its `reason`: expired, not yet valid, wrong host, unknown authority, self-signed, revoked, other).",
  FC_ERR_ABORTED: 'The request was aborted by the caller.',
  FC_ERR_RESOLVE_SPEC: 'A `--resolve HOST=IP[:PORT]` mapping is malformed.',
  FC_ERR_TOPIC_FILE:
    'A topic file cannot be read or is invalid (the message names file, line and field).',
  FC_ERR_TOPIC_CHANGED:
    'A resumed crawl was given a topic other than the one its store was crawled with (refused without --new-topic).',
  FC_ERR_STORE_VERSION:
    'A store was written by a newer focuscrawl (schema version above this one); it is left untouched.',
  FC_ERR_STORE:
    'A store cannot be opened, read or written (the message names the path and operation).',
  FC_ERR_STORE_STATE:
    'A store lifecycle call does not fit the URL state (e.g. completing a URL that is not processing).',
  FC_ERR_STORE_BUSY:
    'Another crawl is running on the store (the message names its process, host and start, and what to do).',
  FC_ERR_LEASE_LOST:
    'A claim was made under a lease that is not open (closed, or lost and its claims taken back).',
  FC_ERR_CLI_USAGE: 'The command line is malformed (unknown command or flag, missing value).',
  FC_ERR_IO:
    'A file or folder given on the command line cannot be read or written, or a port cannot be listened on (the message names the flag, the path or port, and why).',
  FC_ERR_LEARN:
    'Learning cannot proceed: a topic example source cannot be read or is malformed, no usable example remains, or a site model sample is too small or too uniform to learn from.',
  FC_ERR_MODEL_FILE:
    'A link model or site model file cannot be read, is not such a model, or is malformed (the message names the file and field).',
  FC_ERR_CRAWL_THREAD:
    "The crawl's worker thread died (out of memory or an internal error); what was committed stays in the store.",
  FC_ERR_SITEMAP:
    'A sitemap is not a sitemap or cannot be read (not XML or a URL list, wrong root element, broken gzip, an HTTP error).',
  FC_ERR_SITEMAP_TOO_LARGE:
    'A sitemap is larger than the limit (50 MiB uncompressed by default, the protocol maximum).',
  FC_ERR_HOST_UNREACHABLE:
    'A host stayed unreachable (DNS failure, refused connection, timeouts) past the limit; its URLs were failed together without being sent.',
  FC_ERR_EXTRACT_RULES:
    'A field extraction rule file cannot be read or is invalid (the message names the file, line, rule set and field).',
  FC_ERR_UNAUTHORIZED:
    'A request to `focuscrawl serve` lacks the token its route needs, or gives a wrong one (HTTP 401).',
  FC_ERR_FORBIDDEN:
    "A request to `focuscrawl serve` is refused: a control route of a read-only server, or a Host header that is not the loopback server's (HTTP 403).",
  FC_ERR_NOT_FOUND:
    'What a request to `focuscrawl serve` names does not exist: the route, the page, its stored body, a file (HTTP 404).',
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

export interface FocusCrawlErrorOptions {
  cause?: unknown;
  url?: string;
  retryable?: boolean;
}

/** Base class of every error focuscrawl throws on purpose. */
export class FocusCrawlError extends Error {
  override name = 'FocusCrawlError';
  readonly code: ErrorCode;
  /** The URL concerned, when there is one. */
  readonly url: string | undefined;
  /** Whether trying the same request again may succeed. */
  readonly retryable: boolean;

  constructor(code: ErrorCode, message: string, options: FocusCrawlErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.url = options.url;
    this.retryable = options.retryable ?? false;
  }
}

function define(code: ErrorCode, name: string, retryable: boolean) {
  const C = class extends FocusCrawlError {
    constructor(message: string, options: FocusCrawlErrorOptions = {}) {
      super(code, message, { retryable, ...options });
      this.name = name;
    }
  };
  Object.defineProperty(C, 'name', { value: name });
  return C;
}

export const InvalidOptionError = define('FC_ERR_INVALID_OPTION', 'InvalidOptionError', false);
export const InvalidUrlError = define('FC_ERR_INVALID_URL', 'InvalidUrlError', false);
export const OutOfScopeError = define('FC_ERR_OUT_OF_SCOPE', 'OutOfScopeError', false);
export const RobotsDisallowedError = define(
  'FC_ERR_ROBOTS_DISALLOWED',
  'RobotsDisallowedError',
  false,
);
export const BlockedAddressError = define('FC_ERR_BLOCKED_ADDRESS', 'BlockedAddressError', false);
export const DnsError = define('FC_ERR_DNS', 'DnsError', true);
export const TooManyRedirectsError = define(
  'FC_ERR_TOO_MANY_REDIRECTS',
  'TooManyRedirectsError',
  false,
);
export const RedirectLoopError = define('FC_ERR_REDIRECT_LOOP', 'RedirectLoopError', false);
export const ConnectTimeoutError = define('FC_ERR_CONNECT_TIMEOUT', 'ConnectTimeoutError', true);
export const HeadersTimeoutError = define('FC_ERR_HEADERS_TIMEOUT', 'HeadersTimeoutError', true);
export const TotalTimeoutError = define('FC_ERR_TOTAL_TIMEOUT', 'TotalTimeoutError', true);
export const NetworkError = define('FC_ERR_NETWORK', 'NetworkError', true);
export const ProtocolError = define('FC_ERR_PROTOCOL', 'ProtocolError', false);
export const BodyTooLargeError = define('FC_ERR_BODY_TOO_LARGE', 'BodyTooLargeError', false);
/** Why a server's TLS certificate was rejected (`TlsCertError.reason`). */
export type TlsCertReason =
  | 'expired'
  | 'not-yet-valid'
  | 'wrong-host'
  | 'unknown-authority'
  | 'self-signed'
  | 'revoked'
  | 'other';

const TLS_REASONS: readonly TlsCertReason[] = [
  'expired',
  'not-yet-valid',
  'wrong-host',
  'unknown-authority',
  'self-signed',
  'revoked',
  'other',
];

/**
 * The server's TLS certificate was rejected: permanent for the run (not retried).
 * The message carries `(reason: R)`, so the reason survives as text (the store, a
 * thread boundary); without an explicit `reason` it is read back from there.
 */
export class TlsCertError extends FocusCrawlError {
  override name = 'TlsCertError';
  readonly reason: TlsCertReason;

  constructor(message: string, options: FocusCrawlErrorOptions & { reason?: TlsCertReason } = {}) {
    const { reason, ...rest } = options;
    super('FC_ERR_TLS_CERT', message, { retryable: false, ...rest });
    const said = /\(reason: ([a-z-]+)\)/.exec(message)?.[1] as TlsCertReason | undefined;
    this.reason = reason ?? (said !== undefined && TLS_REASONS.includes(said) ? said : 'other');
  }
}

export const AbortedError = define('FC_ERR_ABORTED', 'AbortedError', false);
export const ResolveSpecError = define('FC_ERR_RESOLVE_SPEC', 'ResolveSpecError', false);
export const TopicFileError = define('FC_ERR_TOPIC_FILE', 'TopicFileError', false);
export const TopicChangedError = define('FC_ERR_TOPIC_CHANGED', 'TopicChangedError', false);
export const StoreVersionError = define('FC_ERR_STORE_VERSION', 'StoreVersionError', false);
export const StoreError = define('FC_ERR_STORE', 'StoreError', false);
export const StoreStateError = define('FC_ERR_STORE_STATE', 'StoreStateError', false);
export const StoreBusyError = define('FC_ERR_STORE_BUSY', 'StoreBusyError', false);
export const LeaseLostError = define('FC_ERR_LEASE_LOST', 'LeaseLostError', false);
export const CliUsageError = define('FC_ERR_CLI_USAGE', 'CliUsageError', false);
export const IoError = define('FC_ERR_IO', 'IoError', false);
export const LearnError = define('FC_ERR_LEARN', 'LearnError', false);
export const ModelFileError = define('FC_ERR_MODEL_FILE', 'ModelFileError', false);
export const CrawlThreadError = define('FC_ERR_CRAWL_THREAD', 'CrawlThreadError', false);
export const SitemapError = define('FC_ERR_SITEMAP', 'SitemapError', false);
export const HostUnreachableError = define('FC_ERR_HOST_UNREACHABLE', 'HostUnreachableError', true);
export const SitemapTooLargeError = define(
  'FC_ERR_SITEMAP_TOO_LARGE',
  'SitemapTooLargeError',
  false,
);
export const ExtractRulesError = define('FC_ERR_EXTRACT_RULES', 'ExtractRulesError', false);
export const UnauthorizedError = define('FC_ERR_UNAUTHORIZED', 'UnauthorizedError', false);
export const ForbiddenError = define('FC_ERR_FORBIDDEN', 'ForbiddenError', false);
export const NotFoundError = define('FC_ERR_NOT_FOUND', 'NotFoundError', false);

export function isFocusCrawlError(e: unknown): e is FocusCrawlError {
  return e instanceof FocusCrawlError;
}

const BY_CODE: Record<
  ErrorCode,
  new (
    message: string,
    options?: FocusCrawlErrorOptions,
  ) => FocusCrawlError
> = {
  FC_ERR_INVALID_OPTION: InvalidOptionError,
  FC_ERR_INVALID_URL: InvalidUrlError,
  FC_ERR_OUT_OF_SCOPE: OutOfScopeError,
  FC_ERR_ROBOTS_DISALLOWED: RobotsDisallowedError,
  FC_ERR_BLOCKED_ADDRESS: BlockedAddressError,
  FC_ERR_DNS: DnsError,
  FC_ERR_TOO_MANY_REDIRECTS: TooManyRedirectsError,
  FC_ERR_REDIRECT_LOOP: RedirectLoopError,
  FC_ERR_CONNECT_TIMEOUT: ConnectTimeoutError,
  FC_ERR_HEADERS_TIMEOUT: HeadersTimeoutError,
  FC_ERR_TOTAL_TIMEOUT: TotalTimeoutError,
  FC_ERR_NETWORK: NetworkError,
  FC_ERR_PROTOCOL: ProtocolError,
  FC_ERR_BODY_TOO_LARGE: BodyTooLargeError,
  FC_ERR_TLS_CERT: TlsCertError,
  FC_ERR_ABORTED: AbortedError,
  FC_ERR_RESOLVE_SPEC: ResolveSpecError,
  FC_ERR_TOPIC_FILE: TopicFileError,
  FC_ERR_TOPIC_CHANGED: TopicChangedError,
  FC_ERR_STORE_VERSION: StoreVersionError,
  FC_ERR_STORE: StoreError,
  FC_ERR_STORE_STATE: StoreStateError,
  FC_ERR_STORE_BUSY: StoreBusyError,
  FC_ERR_LEASE_LOST: LeaseLostError,
  FC_ERR_CLI_USAGE: CliUsageError,
  FC_ERR_IO: IoError,
  FC_ERR_LEARN: LearnError,
  FC_ERR_MODEL_FILE: ModelFileError,
  FC_ERR_CRAWL_THREAD: CrawlThreadError,
  FC_ERR_SITEMAP: SitemapError,
  FC_ERR_SITEMAP_TOO_LARGE: SitemapTooLargeError,
  FC_ERR_HOST_UNREACHABLE: HostUnreachableError,
  FC_ERR_EXTRACT_RULES: ExtractRulesError,
  FC_ERR_UNAUTHORIZED: UnauthorizedError,
  FC_ERR_FORBIDDEN: ForbiddenError,
  FC_ERR_NOT_FOUND: NotFoundError,
};

/** An error as plain data, to cross a thread or process boundary. */
export interface ErrorData {
  name: string;
  message: string;
  code?: string;
  url?: string;
  retryable?: boolean;
  cause?: string;
}

export function errorToData(e: unknown): ErrorData {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e) };
  const d: ErrorData = { name: e.name, message: e.message };
  if (e instanceof FocusCrawlError) {
    d.code = e.code;
    if (e.url !== undefined) d.url = e.url;
    d.retryable = e.retryable;
  }
  if (e.cause instanceof Error) d.cause = e.cause.message;
  return d;
}

/** The typed error `errorToData` described (a plain Error for foreign ones). */
export function errorFromData(d: ErrorData): Error {
  const C = d.code === undefined ? undefined : BY_CODE[d.code as ErrorCode];
  const cause = d.cause === undefined ? undefined : new Error(d.cause);
  if (C === undefined) {
    const e = new Error(d.message, cause === undefined ? undefined : { cause });
    e.name = d.name;
    return e;
  }
  const opts: FocusCrawlErrorOptions = {};
  if (cause !== undefined) opts.cause = cause;
  if (d.url !== undefined) opts.url = d.url;
  if (d.retryable !== undefined) opts.retryable = d.retryable;
  return new C(d.message, opts);
}
