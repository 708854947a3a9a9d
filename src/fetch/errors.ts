/** Maps undici and Node network errors onto the project's typed errors. */
import {
  AbortedError,
  ConnectTimeoutError,
  DnsError,
  type FocusCrawlError,
  HeadersTimeoutError,
  isFocusCrawlError,
  NetworkError,
  ProtocolError,
  TlsCertError,
  type TlsCertReason,
  TotalTimeoutError,
} from '../errors/index.js';

export interface TimeoutSettings {
  connectTimeoutMs: number;
  firstByteTimeoutMs: number;
  totalTimeoutMs: number;
}

/** Node's (OpenSSL's) certificate verification codes → why the certificate was rejected. */
const TLS_CERT_REASONS: Readonly<Record<string, TlsCertReason>> = {
  CERT_HAS_EXPIRED: 'expired',
  CRL_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not-yet-valid',
  ERR_TLS_CERT_ALTNAME_INVALID: 'wrong-host',
  HOSTNAME_MISMATCH: 'wrong-host',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'unknown-authority',
  UNABLE_TO_GET_ISSUER_CERT: 'unknown-authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'unknown-authority',
  CERT_UNTRUSTED: 'unknown-authority',
  CERT_CHAIN_TOO_LONG: 'unknown-authority',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed',
  CERT_REVOKED: 'revoked',
  CERT_SIGNATURE_FAILURE: 'other',
  CERT_REJECTED: 'other',
  INVALID_CA: 'other',
  INVALID_PURPOSE: 'other',
  PATH_LENGTH_EXCEEDED: 'other',
  UNABLE_TO_DECRYPT_CERT_SIGNATURE: 'other',
  UNABLE_TO_DECODE_ISSUER_PUBLIC_KEY: 'other',
  ERROR_IN_CERT_NOT_BEFORE_FIELD: 'other',
  ERROR_IN_CERT_NOT_AFTER_FIELD: 'other',
  ERR_TLS_CERT_SIGNATURE_ALGORITHM_UNSUPPORTED: 'other',
};

/** The reason a TLS error code gives for rejecting a certificate; undefined for other codes. */
export function tlsCertReason(code: string | undefined): TlsCertReason | undefined {
  return code === undefined ? undefined : TLS_CERT_REASONS[code];
}

/** undici's codes for responses that break HTTP/1.1 framing or its header limit. */
const PROTOCOL_CODES: Record<string, string> = {
  UND_ERR_HEADERS_OVERFLOW: 'response headers beyond the 16 KiB limit',
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: 'a body that does not match its Content-Length',
};

/**
 * A ProtocolError for a response that broke HTTP/1.1 (bad chunk framing, a body that
 * does not match its Content-Length, conflicting lengths, a header flood), or undefined.
 */
function protocolErrorOf(err: unknown, url: string): FocusCrawlError | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const e = err as { code?: unknown; name?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = typeof e.message === 'string' ? e.message : '';
  let what = PROTOCOL_CODES[code];
  if (what === undefined) {
    if (e.name !== 'HTTPParserError' && !code.startsWith('HPE_')) return undefined;
    what = 'a response the HTTP/1.1 parser rejects';
  }
  return new ProtocolError(`${url}: ${what} (${code === '' ? '' : `${code} `}${message})`, {
    cause: err,
    url,
  });
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
  const protocol = protocolErrorOf(err, url);
  if (protocol !== undefined) return protocol;
  const reason = tlsCertReason(code);
  if (reason !== undefined) {
    return new TlsCertError(
      `${url}: TLS certificate rejected (reason: ${reason}): ${code} ${message}`,
      { ...o, reason },
    );
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
