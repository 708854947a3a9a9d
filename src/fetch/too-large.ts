/**
 * A page body cut at the byte cap is not a page: the crawl and `watch` record it as
 * `FC_ERR_BODY_TOO_LARGE` (a body past `maxBytes` after decompression, a compression
 * bomb among them), and `inspect` says so. Robots.txt and sitemaps read a cut body
 * their own way (up to their own caps) and do not come here.
 */
import { BodyTooLargeError, type FocusCrawlError } from '../errors/index.js';
import type { FetchResult } from './types.js';

/** The error a cut body ends as; undefined when the body is whole. */
export function bodyTooLarge(
  res: Pick<FetchResult, 'truncated' | 'bytes' | 'bytesOnWire' | 'finalUrl' | 'headers'>,
): FocusCrawlError | undefined {
  if (!res.truncated) return undefined;
  const coding = res.headers['content-encoding'];
  const wire =
    typeof coding === 'string' && coding !== '' && coding !== 'identity'
      ? ` from ${res.bytesOnWire} bytes of ${coding} on the wire`
      : '';
  return new BodyTooLargeError(
    `${res.finalUrl}: the body reached the byte cap (${res.bytes} bytes${wire}) and was not read further; raise --max-bytes to keep such pages`,
  );
}
