/**
 * Redirects, followed by hand so that every hop is canonicalised, scope-checked,
 * checked against robots.txt and the address guard, and recorded. Pure.
 */
import {
  InvalidUrlError,
  OutOfScopeError,
  RedirectLoopError,
  TooManyRedirectsError,
} from '../errors/index.js';
import { canonicalizeUrl } from '../url/index.js';
import type { RedirectHop } from './types.js';

/** Whether a response with this status and Location header is a redirect to follow. */
export function isRedirect(status: number, location: string | undefined): location is string {
  return (
    location !== undefined &&
    location !== '' &&
    (status === 301 || status === 302 || status === 303 || status === 307 || status === 308)
  );
}

export interface RedirectPolicy {
  maxRedirects: number;
  scope: ((url: string) => boolean) | undefined;
}

/**
 * Records the hop `from --status--> location` in `chain` and returns the
 * canonical URL to fetch next. `start` is the URL the chain began with. Throws
 * InvalidUrlError, RedirectLoopError, TooManyRedirectsError or OutOfScopeError.
 */
export function followRedirect(
  start: string,
  chain: RedirectHop[],
  from: string,
  status: number,
  location: string,
  policy: RedirectPolicy,
): string {
  const next = canonicalizeUrl(location, from);
  if (next === null) {
    throw new InvalidUrlError(
      `${from} redirected (${status}) to ${JSON.stringify(location)}, which is not an http(s) URL`,
      { url: from },
    );
  }
  chain.push({ url: from, status, location: next });
  if (next === start || chain.some((h) => h.url === next)) {
    throw new RedirectLoopError(
      `redirect loop: ${[start, ...chain.map((h) => h.location)].join(' -> ')}`,
      { url: start },
    );
  }
  if (chain.length > policy.maxRedirects) {
    throw new TooManyRedirectsError(
      `${start} redirected more than maxRedirects=${policy.maxRedirects} times (last hop: ${from} -> ${next})`,
      { url: start },
    );
  }
  if (policy.scope !== undefined && !policy.scope(next)) {
    throw new OutOfScopeError(`${from} redirected (${status}) to ${next}, which is out of scope`, {
      url: next,
    });
  }
  return next;
}
