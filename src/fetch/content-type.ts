/** Content-Type helpers. Charset detection and sniffing live in ./charset/. */

/** The media type of a Content-Type value, lower-cased, parameters dropped (`text/html; charset=x` → `text/html`). */
export function mediaType(contentType: string | undefined): string | undefined {
  if (contentType === undefined) return undefined;
  const semi = contentType.indexOf(';');
  const t = (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase();
  return t === '' ? undefined : t;
}

/**
 * Whether a Content-Type declares HTML (`text/html`, `application/xhtml+xml`).
 * A missing Content-Type gives false: sniff the body to decide.
 */
export function isHtmlContentType(contentType: string | undefined): boolean {
  const t = mediaType(contentType);
  return t === 'text/html' || t === 'application/xhtml+xml';
}
