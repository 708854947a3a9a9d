// Fetcher flags shared by every command that fetches (inspect now, crawl later).
import type { FetcherOptionsInput } from '../fetch/index.js';
import { bool, bytes, type FlagSpec, int, type Parsed, str, strs } from './args.js';

export const fetchFlags: FlagSpec = {
  resolve: { type: 'string', multiple: true },
  proxy: { type: 'string' },
  'user-agent': { type: 'string' },
  'contact-url': { type: 'string' },
  'max-bytes': { type: 'string' },
  'connect-timeout-ms': { type: 'string' },
  'first-byte-timeout-ms': { type: 'string' },
  'timeout-ms': { type: 'string' },
  retries: { type: 'string' },
  'max-redirects': { type: 'string' },
  concurrency: { type: 'string' },
  'per-host-concurrency': { type: 'string' },
  'delay-ms': { type: 'string' },
  'allow-private': { type: 'boolean' },
  'no-dns': { type: 'boolean' },
};

export const fetchFlagsHelp = `Fetcher options:
  --resolve HOST=IP[:PORT]     connect to IP[:PORT] for HOST; URL and Host header unchanged
                               (repeatable; wildcards: '*.test=127.0.0.1:8080')
  --proxy URL                  send requests through an HTTP(S) proxy
  --user-agent UA              full User-Agent (default: focuscrawl/VERSION (+CONTACT))
  --contact-url URL            contact URL placed in the default User-Agent
  --max-bytes SIZE             body cap after decompression (default 2MiB; 10KB as DESIGN 1.4)
  --connect-timeout-ms N       (default 10000)
  --first-byte-timeout-ms N    (default 30000)
  --timeout-ms N               whole request, body included (default 60000)
  --retries N                  retries for network errors, 5xx and 429 (default 2)
  --max-redirects N            (default 5)
  --concurrency N              requests in flight, all hosts (default 16)
  --per-host-concurrency N     requests in flight per host (default 1)
  --delay-ms N                 minimum gap between requests to one host (default 1000;
                               robots.txt Crawl-delay wins when larger)
  --allow-private              allow loopback/private/link-local addresses (refused by default)
  --no-dns                     never query DNS: hosts without a --resolve mapping fail as
                               unresolvable (FC_ERR_DNS), e.g. for a local mirror of a site`;

/** Maps the shared flags onto fetcher options; only flags given are set. */
export function fetcherOptionsFromFlags(p: Parsed, command: string): FetcherOptionsInput {
  const o: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => {
    if (v !== undefined) o[k] = v;
  };
  const resolve = strs(p, 'resolve');
  if (resolve.length > 0) o['resolve'] = resolve;
  set('proxy', str(p, 'proxy'));
  set('userAgent', str(p, 'user-agent'));
  set('contactUrl', str(p, 'contact-url'));
  set('maxBytes', bytes(p, 'max-bytes', command));
  set('connectTimeoutMs', int(p, 'connect-timeout-ms', command));
  set('firstByteTimeoutMs', int(p, 'first-byte-timeout-ms', command));
  set('totalTimeoutMs', int(p, 'timeout-ms', command));
  set('retries', int(p, 'retries', command));
  set('maxRedirects', int(p, 'max-redirects', command));
  set('concurrency', int(p, 'concurrency', command));
  set('perHostConcurrency', int(p, 'per-host-concurrency', command));
  set('delayMs', int(p, 'delay-ms', command));
  if (bool(p, 'allow-private')) o['allowPrivateAddresses'] = true;
  if (bool(p, 'no-dns')) o['dns'] = false;
  return o as FetcherOptionsInput;
}
