// Fetcher flags shared by every command that fetches (crawl, compare, inspect, topic
// learn, train): the fetcher option each one sets, its help and its default, which
// comes from the fetcher's schema (fetch/options.ts).
// The schema from its own module: a command that only starts a crawl (on a thread of its
// own) loads no more of the fetcher than its options.
import { MAX_CONCURRENCY } from '../crawl/options.js';
import { CliUsageError } from '../errors/index.js';
import { type FetcherOptionsInput, fetcherOptionsSchema } from '../fetch/options.js';
import { type Parsed, str } from './args.js';
import {
  applyFlags,
  count,
  type FlagDef,
  flagSpecOf,
  helpOf,
  on,
  type ReadFlag,
  size,
  sizeText,
  text,
  texts,
  whole,
} from './flags.js';
import { flagsByOption, refuseSchemaIssues } from './schema-issues.js';

/** The fetcher options' defaults, as their schema gives them. */
const D = fetcherOptionsSchema.parse({});

/** A size of at least one byte. */
const bytesAtLeast1: ReadFlag = (p, flag, cmd) => {
  const n = size(p, flag, cmd);
  if (n === 0) throw new CliUsageError(`focuscrawl ${cmd}: --${flag} must be at least 1 byte`);
  return n;
};

/** A flag of a number of milliseconds, requests or retries, with its default. */
const n = (flag: string, option: keyof typeof D, help: string, read = whole): FlagDef => ({
  flag,
  arg: 'N',
  option,
  read,
  help,
  default: `${D[option]}`,
});

export const FETCH_FLAGS: readonly FlagDef[] = [
  {
    flag: 'resolve',
    arg: 'HOST=IP[:PORT]',
    option: 'resolve',
    read: texts,
    multiple: true,
    help: "connect to IP[:PORT] for HOST; URL and Host header unchanged (repeatable; wildcards: '*.test=127.0.0.1:8080')",
  },
  {
    flag: 'proxy',
    arg: 'URL',
    option: 'proxy',
    read: text,
    help: 'send requests through an HTTP(S) proxy',
  },
  {
    flag: 'ca-file',
    arg: 'PATH',
    option: 'caFile',
    read: text,
    help: 'PEM file of CA certificates trusted for HTTPS besides the bundled roots',
  },
  {
    flag: 'user-agent',
    arg: 'UA',
    option: 'userAgent',
    read: text,
    help: 'full User-Agent',
    default: 'focuscrawl/VERSION (+CONTACT)',
  },
  {
    flag: 'contact-url',
    arg: 'URL',
    option: 'contactUrl',
    read: text,
    help: 'contact URL placed in the default User-Agent',
    default: D.contactUrl,
  },
  {
    flag: 'max-bytes',
    arg: 'SIZE',
    option: 'maxBytes',
    read: bytesAtLeast1,
    help: 'body cap after decompression (10KB as DESIGN 1.4)',
    default: sizeText(D.maxBytes),
  },
  n('connect-timeout-ms', 'connectTimeoutMs', 'TCP (and TLS) connection, DNS included', count),
  n('first-byte-timeout-ms', 'firstByteTimeoutMs', 'until the response headers arrive', count),
  n('timeout-ms', 'totalTimeoutMs', 'whole request, body included', count),
  {
    flag: 'url-timeout-ms',
    arg: 'N',
    option: 'urlTimeoutMs',
    read: count,
    help: 'one URL: every try, retry wait and redirect hop (default twice --timeout-ms)',
  },
  n('retries', 'retries', 'retries for network errors, 5xx and 429'),
  n('max-redirects', 'maxRedirects', 'redirect hops followed'),
  n(
    'concurrency',
    'concurrency',
    `requests in flight, all hosts (at most ${MAX_CONCURRENCY})`,
    count,
  ),
  n(
    'per-host-concurrency',
    'perHostConcurrency',
    'requests in flight to one host (at most --concurrency)',
    count,
  ),
  n(
    'delay-ms',
    'delayMs',
    'minimum gap between the starts of two requests to one host; a larger robots.txt Crawl-delay wins',
  ),
  {
    flag: 'allow-private',
    option: 'allowPrivateAddresses',
    read: on(true),
    help: 'allow loopback/private/link-local addresses (refused by default)',
  },
  {
    flag: 'no-dns',
    option: 'dns',
    read: on(false),
    help: 'never query DNS: hosts without a --resolve mapping fail as unresolvable (FC_ERR_DNS), e.g. for a local mirror of a site',
  },
];

export const fetchFlags = flagSpecOf(FETCH_FLAGS);

export const fetchFlagsHelp = `Fetcher options:\n${helpOf(FETCH_FLAGS)}`;

/** The fetcher options by the flag that sets them. */
const FLAG_OF = flagsByOption(FETCH_FLAGS);

/**
 * Refuses fetcher flags whose values make no sense together or at all, naming the
 * flags: a limit other than its own holds first (a `--first-byte-timeout-ms` above
 * `--timeout-ms`, more `--per-host-concurrency` than `--concurrency`), a flag another
 * one makes idle (`--contact-url` beside `--user-agent`), more than
 * `MAX_CONCURRENCY` requests in flight, a value the fetcher's schema refuses.
 */
export function checkFetchFlags(p: Parsed, o: Record<string, unknown>, cmd: string): void {
  const bad = (m: string) => new CliUsageError(`focuscrawl ${cmd}: ${m}`);
  const concurrency = (o['concurrency'] as number | undefined) ?? D.concurrency;
  if (concurrency > MAX_CONCURRENCY) {
    throw bad(
      `--concurrency must be at most ${MAX_CONCURRENCY} (requests in flight at once), got ${concurrency}`,
    );
  }
  const perHost = o['perHostConcurrency'] as number | undefined;
  if (perHost !== undefined && perHost > concurrency) {
    const c = o['concurrency'] === undefined ? `its default ${concurrency}` : `${concurrency}`;
    throw bad(
      `--per-host-concurrency ${perHost} is more than --concurrency (${c}): no more than --concurrency requests are ever in flight; raise --concurrency or lower --per-host-concurrency`,
    );
  }
  const total = o['totalTimeoutMs'] as number | undefined;
  for (const [flag, key] of [
    ['connect-timeout-ms', 'connectTimeoutMs'],
    ['first-byte-timeout-ms', 'firstByteTimeoutMs'],
  ] as const) {
    const part = o[key] as number | undefined;
    if (total !== undefined && part !== undefined && part > total) {
      throw bad(
        `--${flag} ${part} is longer than --timeout-ms ${total}, which bounds the whole request: it would never be reached`,
      );
    }
  }
  if (str(p, 'user-agent') !== undefined && str(p, 'contact-url') !== undefined) {
    throw bad(
      '--contact-url goes into the default User-Agent only, which --user-agent replaces: put the contact URL in --user-agent, or leave --user-agent out',
    );
  }
  refuseSchemaIssues(fetcherOptionsSchema, o, FLAG_OF, cmd);
}

/** Maps the shared flags onto fetcher options; only flags given are set. */
export function fetcherOptionsFromFlags(p: Parsed, command: string): FetcherOptionsInput {
  const o: Record<string, unknown> = {};
  applyFlags(FETCH_FLAGS, p, command, o);
  checkFetchFlags(p, o, command);
  return o as FetcherOptionsInput;
}
