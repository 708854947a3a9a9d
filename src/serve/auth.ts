/**
 * Who may do what on the server (docs/api.md, "Tokens"):
 *
 * - Bound to loopback (the default), the read routes are open to this machine, and a
 *   request whose `Host` header names another host is refused (403): a page of another
 *   site that reached the server by DNS rebinding cannot read the crawl.
 * - Bound to any other address, every API route needs the token: the header
 *   `Authorization: Bearer TOKEN`, or `?token=TOKEN` on a GET (for EventSource and
 *   download links, which cannot set headers). The dashboard's own files stay open.
 * - Control routes (POST, PUT) always need the token in the header, never from the
 *   URL; a read-only server refuses them (403) whatever the token.
 *
 * Tokens are compared in constant time (their SHA-256 digests, so that neither the
 * content nor the length leaks through timing).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { ForbiddenError, InvalidOptionError, UnauthorizedError } from '../errors/index.js';
import type { ServeOptions } from './options.js';

/** Whether `host` (a name or address, IPv6 with or without brackets) is loopback. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::ffff:127.0.0.1';
}

/** A new token: 32 random bytes, base64url (43 characters). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The server's token: the given one, else one generated (on loopback, or when asked
 * with `generateToken`). A host other than loopback without either is refused: a
 * server open to the network with a token nobody was shown helps no one.
 */
export function tokenFor(o: ServeOptions): { token: string; generated: boolean } {
  if (o.token !== undefined) return { token: o.token, generated: false };
  if (!isLoopback(o.host) && !o.generateToken) {
    throw new InvalidOptionError(
      `serve.token: host ${o.host} is not loopback: give a token (--token), or let one be generated (generateToken)`,
    );
  }
  return { token: newToken(), generated: true };
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Whether `given` is `token`, in time independent of both. */
export function sameToken(given: string, token: string): boolean {
  return timingSafeEqual(digest(given), digest(token));
}

/** What auth needs of a request. */
export interface RequestLike {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  query: unknown;
}

/** The token a request carries: the bearer header, or `?token=` on a GET when `fromUrl`. */
function tokenOf(req: RequestLike, fromUrl: boolean): string | undefined {
  const h = req.headers['authorization'];
  const header = Array.isArray(h) ? h[0] : h;
  const m = header === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (m !== null) return m[1];
  if (!fromUrl || (req.method !== 'GET' && req.method !== 'HEAD')) return undefined;
  const q = (req.query ?? {}) as Record<string, unknown>;
  return typeof q['token'] === 'string' ? q['token'] : undefined;
}

export interface Guard {
  /** The token in force. */
  readonly token: string;
  /** Throws unless the request may read (an API route). */
  read(req: RequestLike): void;
  /** Throws unless the request may control the crawl. */
  control(req: RequestLike): void;
  /** Throws when a loopback server is asked for another host (DNS rebinding). */
  host(req: RequestLike): void;
}

export function createGuard(o: ServeOptions, token: string): Guard {
  const open = isLoopback(o.host);
  const check = (req: RequestLike, fromUrl: boolean, what: string) => {
    const given = tokenOf(req, fromUrl);
    if (given === undefined) {
      throw new UnauthorizedError(
        `${what} needs the server's token: send the header Authorization: Bearer TOKEN${fromUrl ? ' (or ?token=TOKEN on a GET)' : ''}`,
      );
    }
    if (!sameToken(given, token)) throw new UnauthorizedError('the token is wrong');
  };
  return {
    token,
    read(req) {
      if (!open) check(req, true, 'this server is open to the network: every API route');
    },
    control(req) {
      if (o.readOnly) {
        throw new ForbiddenError('the server is read-only (--read-only): control routes are off');
      }
      check(req, false, 'a control route');
    },
    host(req) {
      if (!open) return;
      const h = req.headers['host'];
      const name = (Array.isArray(h) ? h[0] : h)?.replace(/:\d+$/, '') ?? '';
      if (name !== '' && !isLoopback(name)) {
        throw new ForbiddenError(
          `the server listens on loopback and is asked for host ${JSON.stringify(name)}: open it as http://127.0.0.1 or http://localhost`,
        );
      }
    },
  };
}
