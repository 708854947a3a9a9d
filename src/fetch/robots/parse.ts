/**
 * robots.txt parser (RFC 9309). Pure: text in, groups out.
 *
 * - A group is one or more `User-agent` lines followed by rules; a `User-agent`
 *   line that follows a rule starts a new group. Rules before the first
 *   `User-agent` line belong to no group and are ignored.
 * - Keys are case-insensitive; a few common misspellings are accepted
 *   (`useragent`, `user agent`, `disalow`, `dissallow`, …), as major crawlers do.
 * - `#` starts a comment. Blank lines, lines without a colon (unless they read
 *   `key value` with a known key), unknown keys and junk are skipped.
 * - `Allow`/`Disallow` with an empty value add no rule.
 * - `Crawl-delay` takes (fractional) seconds; the first valid value of a group counts.
 * - `Sitemap` lines are collected wherever they appear; they do not end a group.
 * - A line longer than {@link MAX_LINE_BYTES} bytes is cut there (the rest is
 *   ignored), as Google's parser does.
 * - Only ASCII whitespace (space, tab, CR, LF, VT, FF) is trimmed: a line that
 *   starts with another character (a byte-order mark after the first line, a
 *   no-break space) is junk.
 * - Google's `index.html` rule: `Allow: /dir/index.html` (or `index.htm`) also
 *   allows `/dir/` itself (the rule `/dir/$` is added, with the same line).
 */
import { normalizeRobotsPath } from './path.js';

export interface RobotsRule {
  allow: boolean;
  /** The path pattern, percent-encoding normalised (see {@link normalizeRobotsPath}). */
  pattern: string;
  /** 1-based line number in the file. */
  line: number;
}

export interface RobotsGroup {
  /** Product tokens of the group's `User-agent` lines, lower-cased; `*` for the wildcard. */
  agents: string[];
  rules: RobotsRule[];
  /** Crawl-delay in seconds, when the group has a valid one. */
  crawlDelaySec: number | undefined;
  /** Line of the group's first `User-agent` line. */
  line: number;
}

export interface RobotsTxt {
  groups: RobotsGroup[];
  /** Values of `Sitemap` lines, in file order. */
  sitemaps: string[];
}

const KEY_AGENT = 1;
const KEY_ALLOW = 2;
const KEY_DISALLOW = 3;
const KEY_DELAY = 4;
const KEY_SITEMAP = 5;

const KEYS = new Map<string, number>([
  ['user-agent', KEY_AGENT],
  ['useragent', KEY_AGENT],
  ['user agent', KEY_AGENT],
  ['user_agent', KEY_AGENT],
  ['allow', KEY_ALLOW],
  ['disallow', KEY_DISALLOW],
  ['dissallow', KEY_DISALLOW],
  ['dissalow', KEY_DISALLOW],
  ['disalow', KEY_DISALLOW],
  ['diasllow', KEY_DISALLOW],
  ['disallaw', KEY_DISALLOW],
  ['crawl-delay', KEY_DELAY],
  ['crawldelay', KEY_DELAY],
  ['crawl delay', KEY_DELAY],
  ['sitemap', KEY_SITEMAP],
  ['site-map', KEY_SITEMAP],
]);

/** Longest line read, in UTF-8 bytes (Google's limit: 8 × 2083 bytes, less one). */
export const MAX_LINE_BYTES = 2083 * 8 - 1;

const NO_COLON_LINE = /^([A-Za-z][A-Za-z_-]*)[ \t]+([^ \t]+)$/;
const DELAY_VALUE = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * The product token of a `User-agent` value, lower-cased: `*` for the wildcard,
 * otherwise the leading run of letters, `_` and `-` (`FocusCrawl/1.0` → `focuscrawl`).
 */
export function agentToken(value: string): string {
  if (value.charCodeAt(0) === 42 /* * */) return '*';
  let end = 0;
  while (end < value.length) {
    const c = value.charCodeAt(end);
    const ok = (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95 || c === 45;
    if (!ok) break;
    end++;
  }
  return value.slice(0, end).toLowerCase();
}

function isAsciiSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** `s` without leading and trailing ASCII whitespace. */
function trimAscii(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isAsciiSpace(s.charCodeAt(a))) a++;
  while (b > a && isAsciiSpace(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

/** `line` cut to at most {@link MAX_LINE_BYTES} UTF-8 bytes, never inside a character. */
function cutLongLine(line: string): string {
  // At most 3 UTF-8 bytes per UTF-16 code unit.
  if (line.length * 3 <= MAX_LINE_BYTES) return line;
  const bytes = Buffer.from(line, 'utf8');
  if (bytes.length <= MAX_LINE_BYTES) return line;
  let end = MAX_LINE_BYTES;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/**
 * For an Allow pattern whose last segment is `index.html` or `index.htm` (a
 * final `$` allowed), the pattern of the directory itself (`/dir/index.html` →
 * `/dir/$`); otherwise undefined.
 */
export function directoryIndexPattern(pattern: string): string | undefined {
  const body = pattern.endsWith('$') ? pattern.slice(0, -1) : pattern;
  const slash = body.lastIndexOf('/');
  if (slash < 0) return undefined;
  const last = body.slice(slash + 1);
  if (last !== 'index.html' && last !== 'index.htm') return undefined;
  return body.slice(0, slash + 1) + '$';
}

export function parseRobotsTxt(text: string): RobotsTxt {
  const groups: RobotsGroup[] = [];
  const sitemaps: string[] = [];
  let group: RobotsGroup | undefined;
  let inAgentLines = false;

  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    let line = cutLongLine(lines[i]!);
    if (i === 0 && line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    const hash = line.indexOf('#');
    if (hash >= 0) line = line.slice(0, hash);
    line = trimAscii(line);
    if (line === '') continue;

    let key: number | undefined;
    let value: string;
    const colon = line.indexOf(':');
    if (colon >= 0) {
      key = KEYS.get(trimAscii(line.slice(0, colon)).toLowerCase());
      value = trimAscii(line.slice(colon + 1));
    } else {
      const m = NO_COLON_LINE.exec(line);
      if (m === null) continue;
      key = KEYS.get(m[1]!.toLowerCase());
      value = m[2]!;
    }
    if (key === undefined) continue;
    const lineNo = i + 1;

    switch (key) {
      case KEY_AGENT: {
        const token = agentToken(value);
        if (group !== undefined && inAgentLines) {
          group.agents.push(token);
        } else {
          group = { agents: [token], rules: [], crawlDelaySec: undefined, line: lineNo };
          groups.push(group);
        }
        inAgentLines = true;
        break;
      }
      case KEY_ALLOW:
      case KEY_DISALLOW:
        if (group === undefined) break;
        inAgentLines = false;
        if (value !== '') {
          const allow = key === KEY_ALLOW;
          const pattern = normalizeRobotsPath(value);
          group.rules.push({ allow, pattern, line: lineNo });
          const dir = allow ? directoryIndexPattern(pattern) : undefined;
          if (dir !== undefined) group.rules.push({ allow, pattern: dir, line: lineNo });
        }
        break;
      case KEY_DELAY:
        if (group === undefined) break;
        inAgentLines = false;
        if (group.crawlDelaySec === undefined && DELAY_VALUE.test(value)) {
          group.crawlDelaySec = Number(value);
        }
        break;
      case KEY_SITEMAP:
        if (value !== '') sitemaps.push(value);
        break;
    }
  }
  return { groups, sitemaps };
}
