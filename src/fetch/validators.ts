/**
 * Validators and conditional requests (RFC 9110 §8.8, §13.1): what a response says
 * about its version (ETag, Last-Modified), and the request headers that ask a server
 * to answer `304 Not Modified` when the stored copy is still current. Pure.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { ConditionalValidators } from './types.js';

/** The validators of a response. */
export interface Validators {
  /** The ETag header, verbatim (a weak `W/"…"` tag included). */
  etag?: string;
  /** The Last-Modified header, verbatim, even when it is not a valid HTTP date. */
  lastModified?: string;
  /**
   * Last-Modified as ms since the epoch on the receiver's clock (see `validatorsOf`);
   * absent when it is not a valid HTTP date, or when it is the response's own time.
   */
  lastModifiedMs?: number;
}

/** A server clock this far from the receiver's is wrong (see `validatorsOf`). */
export const CLOCK_SKEW_MS = 60_000;

/** A header's value by name, case-insensitively; undefined when absent or blank. */
function headerOf(headers: Record<string, string>, name: string): string | undefined {
  let v = headers[name];
  if (v === undefined) {
    for (const k in headers) {
      if (k.toLowerCase() === name) {
        v = headers[k];
        break;
      }
    }
  }
  return v === undefined || v.trim() === '' ? undefined : v;
}

/**
 * The validators of a response from its headers (`FetchResult.headers`): ETag and
 * Last-Modified kept verbatim, to be sent back in `FetchInit.conditional`; the date
 * also parsed (`lastModifiedMs`) when it is a valid HTTP date.
 *
 * Given `receivedAt` (when the response came, on the receiver's clock) and a valid
 * `Date` header more than {@link CLOCK_SKEW_MS} away from it, the server's clock is
 * wrong and the date is moved onto the receiver's clock: `lastModifiedMs = receivedAt −
 * max(0, Date − Last-Modified)`, the page's age by the server's own clock (as HTTP
 * caches reckon it, RFC 9111 §4.2.2), so that its changes are dated rightly against
 * the receiver's visits. Otherwise the date is taken as it is (a moved date would
 * wobble by the network's delay from one answer to the next).
 *
 * A Last-Modified in the same second as the `Date` header, or after it, is the
 * response stamped with its own time (as many dynamic pages are), not the date of a
 * change: `lastModifiedMs` is then left out (the header is still kept, for
 * `If-Modified-Since`).
 */
export function validatorsOf(headers: Record<string, string>, receivedAt?: number): Validators {
  const out: Validators = {};
  const etag = headerOf(headers, 'etag');
  if (etag !== undefined) out.etag = etag;
  const lastModified = headerOf(headers, 'last-modified');
  if (lastModified !== undefined) {
    out.lastModified = lastModified;
    const ms = parseHttpDate(lastModified);
    const date = headerOf(headers, 'date');
    const serverNow = date === undefined ? undefined : parseHttpDate(date);
    if (ms !== undefined && !(serverNow !== undefined && ms > serverNow - 1000)) {
      out.lastModifiedMs =
        serverNow === undefined ||
        receivedAt === undefined ||
        Math.abs(serverNow - receivedAt) <= CLOCK_SKEW_MS
          ? ms
          : receivedAt - Math.max(0, serverNow - ms);
    }
  }
  return out;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY = '(?:mon|tue|wed|thu|fri|sat|sun)';
const LONG_DAY = '(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)';
const MON = '(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)';
const TIME = '(\\d{2}):(\\d{2}):(\\d{2})';
/** `Sun, 06 Nov 1994 08:49:37 GMT` */
const IMF_FIXDATE = new RegExp(`^${DAY}, (\\d{1,2}) ${MON} (\\d{4}) ${TIME} GMT$`, 'i');
/** `Sunday, 06-Nov-94 08:49:37 GMT` (obsolete) */
const RFC850_DATE = new RegExp(`^${LONG_DAY}, (\\d{2})-${MON}-(\\d{2}) ${TIME} GMT$`, 'i');
/** `Sun Nov  6 08:49:37 1994` (obsolete, C's asctime) */
const ASCTIME_DATE = new RegExp(`^${DAY} ${MON} {1,2}(\\d{1,2}) ${TIME} (\\d{4})$`, 'i');

function daysIn(year: number, month: number): number {
  if (month !== 1) return [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month]!;
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
}

function utc(y: number, mon: string, d: number, time: string[]): number | undefined {
  const month = MONTHS.indexOf(mon.toLowerCase());
  const [h, mi, s] = time.map(Number) as [number, number, number];
  if (d < 1 || d > daysIn(y, month) || h > 23 || mi > 59 || s > 60) return undefined;
  const t = new Date(0);
  t.setUTCFullYear(y, month, d); // not Date.UTC, which reads years 0–99 as 1900–1999
  t.setUTCHours(h, mi, s);
  return t.getTime();
}

/**
 * An HTTP date (RFC 9110 §5.6.7: IMF-fixdate, or the obsolete RFC 850 and asctime
 * forms) as ms since the epoch; undefined for anything else. Names are matched
 * case-insensitively, a one-digit day is accepted, and the weekday is not checked
 * against the date. A two-digit RFC 850 year more than 50 years after `now` is read
 * as the century before.
 */
export function parseHttpDate(value: string, now: number = Date.now()): number | undefined {
  const v = value.trim();
  let m = IMF_FIXDATE.exec(v);
  if (m !== null) return utc(Number(m[3]), m[2]!, Number(m[1]), m.slice(4, 7));
  m = ASCTIME_DATE.exec(v);
  if (m !== null) return utc(Number(m[6]), m[1]!, Number(m[2]), m.slice(3, 6));
  m = RFC850_DATE.exec(v);
  if (m === null) return undefined;
  const thisYear = new Date(now).getUTCFullYear();
  let year = thisYear - (thisYear % 100) + Number(m[3]);
  if (year > thisYear + 50) year -= 100;
  return utc(year, m[2]!, Number(m[1]), m.slice(4, 7));
}

/** Characters a header value may not hold (controls other than HTAB, and beyond Latin-1). */
const BAD_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * The request headers (flat: name, value, …) of a conditional request: `if-none-match`
 * for the ETag and `if-modified-since` for Last-Modified, verbatim; undefined when
 * neither is given (empty strings count as not given). Throws InvalidOptionError for a
 * value that cannot be sent as a header (line breaks, other controls, beyond Latin-1).
 */
export function conditionalHeaders(
  c: ConditionalValidators | undefined,
  url: string,
): string[] | undefined {
  if (c === undefined) return undefined;
  const out: string[] = [];
  for (const [name, value] of [
    ['if-none-match', c.etag],
    ['if-modified-since', c.lastModified],
  ] as const) {
    if (value === undefined || value === '') continue;
    if (BAD_VALUE.test(value)) {
      throw new InvalidOptionError(
        `conditional: ${JSON.stringify(value)} cannot be sent as ${name} (a character a header value may not hold)`,
        { url },
      );
    }
    out.push(name, value);
  }
  return out.length === 0 ? undefined : out;
}

/** `base` (flat headers) with `extra` added; a header in both is taken from `extra`. */
export function withHeaders(base: string[], extra: string[] | undefined): string[] {
  if (extra === undefined) return base;
  const names = new Set(extra.filter((_, i) => i % 2 === 0));
  const out: string[] = [];
  for (let i = 0; i < base.length; i += 2) {
    if (!names.has(base[i]!)) out.push(base[i]!, base[i + 1]!);
  }
  return out.concat(extra);
}
