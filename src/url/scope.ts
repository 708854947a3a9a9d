/**
 * Scope filters: which URLs a crawl may enter, and link depth.
 *
 * A URL is in scope when all of these hold:
 * 1. it is an http(s) URL;
 * 2. its host is admitted by `mode` (relative to the seeds) or matches `allowHosts`;
 * 3. its host matches no `denyHosts` pattern;
 * 4. `include` is empty, or at least one `include` pattern matches the URL;
 * 5. no `exclude` pattern matches the URL (exclude wins over everything).
 *
 * Host patterns are host names (`example.com`: exactly that host) or
 * `*.example.com` (any subdomain of example.com at any depth, but not
 * example.com itself: list both to get both). They are compared case-insensitively;
 * IDN patterns are converted to punycode. Ports and schemes are ignored.
 *
 * URL patterns are regular expressions, given as strings (or RegExp objects), and
 * are searched anywhere in the URL as {@link canonicalizeUrl} writes it (anchor with
 * `^`/`$`). Regular expressions rather than globs, because URLs are full of the
 * characters globs give a meaning to (`?` begins a query, `*` and `[` occur in
 * paths) and because they can express what globs cannot (alternatives, digit
 * runs such as `/page/\d+$`). String patterns are case-sensitive, like URL paths.
 *
 * Depth: a seed has depth 0 ({@link SEED_DEPTH}); a link found on a page of depth d
 * has depth d + 1 ({@link linkDepth}); a redirect target keeps the depth of the URL
 * that was requested (a redirect is not a link).
 */
import { domainToASCII } from 'node:url';
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import { canonicalizeUrlOrThrow } from './canonicalize.js';
import { hostOf, registrableDomainOfHost } from './host.js';

/** Depth of a seed URL. */
export const SEED_DEPTH = 0;

/** Depth of a link found on a page of depth `parentDepth`. Redirects do not add depth. */
export function linkDepth(parentDepth: number): number {
  return parentDepth + 1;
}

const patternSchema = z.union([z.string(), z.instanceof(RegExp)]);

export const scopeOptionsSchema = z.strictObject({
  /**
   * Which hosts the seeds admit: `same-host` (a seed's exact host name),
   * `same-domain` (a host with the same registrable domain as a seed, e.g.
   * `news.scu.edu.cn` for the seed `www.scu.edu.cn`), or `any`.
   * @default 'same-domain'
   */
  mode: z.enum(['same-host', 'same-domain', 'any']).default('same-domain'),
  /**
   * Seed URLs the mode is relative to. Required (non-empty) unless `mode` is `any`.
   * @default []
   */
  seeds: z.array(z.string()).default([]),
  /**
   * Host patterns admitted in addition to what `mode` admits.
   * @default []
   */
  allowHosts: z.array(z.string()).default([]),
  /**
   * Host patterns never admitted (wins over `mode` and `allowHosts`).
   * @default []
   */
  denyHosts: z.array(z.string()).default([]),
  /**
   * URL regular expressions; when non-empty, a URL must match at least one.
   * @default []
   */
  include: z.array(patternSchema).default([]),
  /**
   * URL regular expressions; a URL that matches any of them is out of scope.
   * @default []
   */
  exclude: z.array(patternSchema).default([]),
});

export type ScopeOptions = z.input<typeof scopeOptionsSchema>;

/** Tests one URL; `true` when it is in scope. */
export type ScopeFilter = (url: string) => boolean;

interface HostMatcher {
  exact: Set<string>;
  /** Suffixes such as `.example.com` from `*.example.com`. */
  suffixes: string[];
}

function normalizeHostPattern(pattern: string, field: string, index: number): string {
  const ascii = domainToASCII(pattern.trim().toLowerCase());
  if (ascii === '' || ascii.includes('*')) {
    throw new InvalidOptionError(
      `${field}[${index}]: ${JSON.stringify(pattern)} is not a host name or a "*.example.com" pattern`,
    );
  }
  return ascii;
}

function compileHosts(patterns: string[], field: string): HostMatcher {
  const m: HostMatcher = { exact: new Set(), suffixes: [] };
  patterns.forEach((p, i) => {
    const t = p.trim();
    if (t.startsWith('*.')) m.suffixes.push(`.${normalizeHostPattern(t.slice(2), field, i)}`);
    else m.exact.add(normalizeHostPattern(t, field, i));
  });
  return m;
}

function hostMatches(m: HostMatcher, host: string): boolean {
  if (m.exact.has(host)) return true;
  for (const s of m.suffixes) if (host.endsWith(s)) return true;
  return false;
}

function compilePatterns(patterns: (string | RegExp)[], field: string): RegExp[] {
  return patterns.map((p, i) => {
    if (p instanceof RegExp) return new RegExp(p.source, p.flags.replace(/[gy]/g, ''));
    try {
      return new RegExp(p);
    } catch (cause) {
      throw new InvalidOptionError(
        `${field}[${i}]: ${JSON.stringify(p)} is not a valid regular expression`,
        { cause },
      );
    }
  });
}

/**
 * Builds a scope filter. Throws `InvalidOptionError` for malformed options or
 * patterns, `InvalidUrlError` for a seed that is not an http(s) URL.
 */
export function createScopeFilter(options: ScopeOptions = {}): ScopeFilter {
  const parsed = scopeOptionsSchema.safeParse(options);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') || '(options)';
    throw new InvalidOptionError(`Invalid scope option ${path}: ${issue?.message}`, {
      cause: parsed.error,
    });
  }
  const o = parsed.data;
  if (o.mode !== 'any' && o.seeds.length === 0) {
    throw new InvalidOptionError(`Scope mode "${o.mode}" needs at least one seed URL`);
  }
  const seedHosts = new Set<string>();
  const seedDomains = new Set<string>();
  for (const seed of o.seeds) {
    const host = hostOf(canonicalizeUrlOrThrow(seed));
    if (host === null) continue;
    seedHosts.add(host);
    seedDomains.add(registrableDomainOfHost(host));
  }
  const allow = compileHosts(o.allowHosts, 'allowHosts');
  const deny = compileHosts(o.denyHosts, 'denyHosts');
  const include = compilePatterns(o.include, 'include');
  const exclude = compilePatterns(o.exclude, 'exclude');
  const mode = o.mode;

  // Registrable-domain lookups are the costly part; remember recent hosts.
  const domainCache = new Map<string, string>();
  const domainOf = (host: string): string => {
    let d = domainCache.get(host);
    if (d === undefined) {
      if (domainCache.size >= 10_000) domainCache.clear();
      d = registrableDomainOfHost(host);
      domainCache.set(host, d);
    }
    return d;
  };

  return (url: string): boolean => {
    let host = hostOf(url);
    if (host === null) return false;
    if (host.endsWith('.')) host = host.slice(0, -1); // 'example.com.' is 'example.com'
    if (hostMatches(deny, host)) return false;
    const admitted =
      mode === 'any' ||
      (mode === 'same-host' ? seedHosts.has(host) : seedDomains.has(domainOf(host))) ||
      hostMatches(allow, host);
    if (!admitted) return false;
    if (include.length > 0 && !include.some((r) => r.test(url))) return false;
    for (const r of exclude) if (r.test(url)) return false;
    return true;
  };
}
