/** What a fetch error says about its host (the frontier parks unreachable hosts). */
import {
  ConnectTimeoutError,
  DnsError,
  HeadersTimeoutError,
  NetworkError,
  TotalTimeoutError,
} from '../errors/index.js';

/** Nothing about the host, a timeout, or the host cannot be reached at all. */
export type HostFailure = 'none' | 'timeout' | 'unreachable';

const UNREACHABLE_CODES = /\b(ECONNREFUSED|EHOSTUNREACH|ENETUNREACH|EHOSTDOWN)\b/;

/** Classifies a fetch error: DNS failures, refused or unroutable connections and connect timeouts are `unreachable`. */
export function hostFailureOf(err: unknown): HostFailure {
  if (err instanceof DnsError || err instanceof ConnectTimeoutError) return 'unreachable';
  if (err instanceof HeadersTimeoutError || err instanceof TotalTimeoutError) return 'timeout';
  if (err instanceof NetworkError && UNREACHABLE_CODES.test(err.message)) return 'unreachable';
  return 'none';
}
