// Fetcher flags shared by every command that fetches (crawl, compare, inspect, topic
// learn, train): the fetcher option each one sets, its help and its default, which
// comes from the fetcher's schema (fetch/options.ts).
// The schema from its own module: a command that only starts a crawl (on a thread of its
// own) loads no more of the fetcher than its options.
import { type FetcherOptionsInput, fetcherOptionsSchema } from '../fetch/options.js';
import type { Parsed } from './args.js';
import {
  applyFlags,
  count,
  type FlagDef,
  flagSpecOf,
  helpOf,
  on,
  size,
  sizeText,
  text,
  texts,
  whole,
} from './flags.js';

/** The fetcher options' defaults, as their schema gives them. */
const D = fetcherOptionsSchema.parse({});

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
    read: size,
    help: 'body cap after decompression (10KB as DESIGN 1.4)',
    default: sizeText(D.maxBytes),
  },
  n('connect-timeout-ms', 'connectTimeoutMs', 'TCP (and TLS) connection, DNS included'),
  n('first-byte-timeout-ms', 'firstByteTimeoutMs', 'until the response headers arrive'),
  n('timeout-ms', 'totalTimeoutMs', 'whole request, body included'),
  n('retries', 'retries', 'retries for network errors, 5xx and 429'),
  n('max-redirects', 'maxRedirects', 'redirect hops followed'),
  n('concurrency', 'concurrency', 'requests in flight, all hosts', count),
  n('per-host-concurrency', 'perHostConcurrency', 'requests in flight to one host', count),
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

/** Maps the shared flags onto fetcher options; only flags given are set. */
export function fetcherOptionsFromFlags(p: Parsed, command: string): FetcherOptionsInput {
  const o: Record<string, unknown> = {};
  applyFlags(FETCH_FLAGS, p, command, o);
  return o as FetcherOptionsInput;
}
