import { createHash } from 'node:crypto';

/**
 * MD5 of a URL's UTF-8 bytes in lower-case hex: the name of the page's file in the
 * repository (DESIGN 1.4). Pass the canonical URL, so that equal pages share a name.
 */
export function md5Hex(url: string): string {
  return createHash('md5').update(url, 'utf8').digest('hex');
}
