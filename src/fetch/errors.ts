/** Maps undici and Node network errors onto the project's typed errors. */
import {
  AbortedError,
  ConnectTimeoutError,
  DnsError,
  type FocusCrawlError,
  HeadersTimeoutError,
  isFocusCrawlError,
  NetworkError,
  TotalTimeoutError,
} from '../errors/index.js';

export interface TimeoutSettings {
  connectTimeoutMs: number;
  firstByteTimeoutMs: number;
  totalTimeoutMs: number;
}

const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME']);

export function toFetchError(err: unknown, url: string, t: TimeoutSettings): FocusCrawlError {
  if (isFocusCrawlError(err)) return err;
  const e = err as { code?: unknown; name?: unknown; message?: unknown; hostname?: unknown };
  const code = typeof e.code === 'string' ? e.code : undefined;
  const message = typeof e.message === 'string' ? e.message : String(err);
  const o = { cause: err, url };
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return new ConnectTimeoutError(
        `${url}: no connection within connectTimeoutMs=${t.connectTimeoutMs}`,
        o,
      );
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new HeadersTimeoutError(
        `${url}: no response headers within firstByteTimeoutMs=${t.firstByteTimeoutMs}`,
        o,
      );
    case 'UND_ERR_BODY_TIMEOUT':
      return new TotalTimeoutError(
        `${url}: the body did not finish within totalTimeoutMs=${t.totalTimeoutMs}`,
        o,
      );
    case 'UND_ERR_ABORTED':
    case 'ABORT_ERR':
      return new AbortedError(`${url}: the request was aborted`, o);
    case 'UND_ERR_DESTROYED':
    case 'UND_ERR_CLOSED':
      return new AbortedError(`${url}: the fetcher was closed`, o);
  }
  if (code !== undefined && DNS_CODES.has(code)) {
    const host = typeof e.hostname === 'string' ? e.hostname : new URL(url).hostname;
    return new DnsError(`${url}: cannot resolve ${host} (${code})`, {
      ...o,
      retryable: code === 'EAI_AGAIN',
    });
  }
  if (e.name === 'AbortError') return new AbortedError(`${url}: the request was aborted`, o);
  return new NetworkError(`${url}: ${code === undefined ? '' : `${code} `}${message}`, o);
}
