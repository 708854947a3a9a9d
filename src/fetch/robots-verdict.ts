/** The verdicts the fetcher makes itself: robots.txt not consulted, and a URL refused. */
import { type FocusCrawlError, RobotsDisallowedError } from '../errors/index.js';
import type { RobotsVerdict } from './types.js';

/** The verdict of a fetch that does not consult robots.txt. */
export function skippedVerdict(origin: string): RobotsVerdict {
  return {
    allowed: true,
    robotsUrl: `${origin}/robots.txt`,
    source: 'skipped',
    status: undefined,
    group: undefined,
    rule: undefined,
    crawlDelayMs: undefined,
    sitemaps: [],
    error: undefined,
    expiresAt: 0,
  };
}

/** The error for a URL that `v` disallows for `agent`, naming the rule (or why robots.txt is unreachable). */
export function disallowed(url: string, v: RobotsVerdict, agent: string): FocusCrawlError {
  let why: string;
  if (v.rule !== undefined) {
    const directive = v.rule.directive === 'allow' ? 'Allow' : 'Disallow';
    why = `line ${v.rule.line} "${directive}: ${v.rule.pattern}" of the group for "${v.group}"`;
  } else {
    why = `robots.txt is unreachable (${v.error}); retried after ${new Date(v.expiresAt).toISOString()}`;
  }
  return new RobotsDisallowedError(`${v.robotsUrl} disallows ${url} for "${agent}": ${why}`, {
    url,
  });
}
