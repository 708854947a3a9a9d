// Text for people in the report's pages: HTML escaping, URLs and hosts, axis and tick
// labels, times (counts, bytes, durations and percentages: util/units.ts). Pure.
import { domainToUnicode } from 'node:url';

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** The URL itself when it is an absolute http(s) URL (safe to put in href), else null. */
export function safeHref(url: string): string | null {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.href : null;
  } catch {
    return null;
  }
}

/** A host name as people read it: `xn--wnyq9s.test` → `电网.test`. */
export function displayHost(host: string): string {
  return host.includes('xn--') ? domainToUnicode(host) || host : host;
}

/**
 * A URL as people read it: the host in Unicode and percent-encoded UTF-8 decoded
 * (`http://xn--wnyq9s.test/%E6%96%B0` → `http://电网.test/新`). For display only:
 * links keep the URL itself.
 */
export function displayUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  if (u.username || u.password) return url;
  let rest = `${u.pathname}${u.search}${u.hash}`;
  try {
    const decoded = decodeURI(rest);
    // Decoding must not bring in control or direction-changing characters.
    if (!UNSAFE_CHARS.test(decoded)) rest = decoded;
  } catch {
    // malformed escapes stay as they are
  }
  return `${u.protocol}//${displayHost(u.host)}${rest}`;
}

const UNSAFE_CHARS =
  /[\u0000-\u0020\u007f-\u00a0\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/;

/** Short labels for time-axis ticks: `0`, `500ms`, `30s`, `1m30s`, `2h`, `1d12h`. */
export function formatTick(ms: number): string {
  if (ms === 0) return '0';
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms < 60_000) return `${+(ms / 1000).toFixed(1)}s`;
  const parts: string[] = [];
  let rest = Math.round(ms / 1000);
  for (const [unit, size] of [
    ['d', 86_400],
    ['h', 3600],
    ['m', 60],
    ['s', 1],
  ] as const) {
    const q = Math.floor(rest / size);
    rest -= q * size;
    if (q > 0) parts.push(`${q}${unit}`);
  }
  return parts.slice(0, 2).join('');
}

/** A time in UTC: `2024-05-01 12:00:00 UTC`; null → `–`. */
export function formatTime(ms: number | null): string {
  if (ms === null || !Number.isFinite(ms)) return '–';
  return new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d{3}Z$/, ' UTC');
}

/** Numbers for axis labels: `0.25`, `1,200`, `1.5k` … without float noise. */
export function formatAxisNumber(n: number): string {
  if (Math.abs(n) >= 1_000_000) return `${+(n / 1_000_000).toPrecision(3)}M`;
  if (Math.abs(n) >= 10_000) return `${+(n / 1000).toPrecision(3)}k`;
  const [int = '', frac] = String(+n.toPrecision(6)).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

/** Shortens `s` to `max` characters with an ellipsis. */
export function clip(s: string, max: number): string {
  const chars = Array.from(s);
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : s;
}

/**
 * A page's table cell: its title (or URL) linked to it when the URL is safe, the
 * URL beneath; every piece escaped.
 */
export function pageCell(p: { url: string; title: string | null }): string {
  const text = escapeHtml(clip(p.title?.trim() || displayUrl(p.url), 120));
  const href = safeHref(p.url);
  const link = href
    ? `<a href="${escapeHtml(href)}" rel="noopener noreferrer nofollow">${text}</a>`
    : text;
  return `<td class="t">${link}<div class="u">${escapeHtml(clip(displayUrl(p.url), 160))}</div></td>`;
}
