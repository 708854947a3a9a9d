// Types shared by the test web's modules.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

export type WebSize = 'small' | 'medium' | 'large';

/** One served request, as kept in `web.requests` and written to the JSON Lines log. */
export interface RequestLogEntry {
  /** Arrival time, ms since the Unix epoch (real time, not the simulated clock). */
  ts: number;
  host: string;
  method: string;
  /** Path with query, as sent. */
  path: string;
  /** Status sent; 0 when the connection was dropped or never answered. */
  status: number;
  userAgent: string;
  /** Body bytes written (after content-encoding). */
  bytes: number;
  /** Set when the request came over TLS (a web serving HTTPS too). */
  tls?: true;
}

/** Simulated time used by the forum (ms since the Unix epoch). */
export interface SimClock {
  now(): number;
  set(ms: number): void;
  advance(ms: number): void;
  /**
   * The HTTP date (ms, whole seconds) that shows simulated time `t`. A still clock
   * (speed 0) shows `t` itself. A running clock shows the real time at which it reads
   * (or read) `t`: a client on the real clock then sees a page's age, Date minus
   * Last-Modified, in its own time, as it would from a real server.
   */
  httpMs(t: number): number;
}

/** Per-web mutable state the handlers may use. */
export interface WebState {
  readonly seed: number;
  readonly size: WebSize;
  readonly clock: SimClock;
  /** Simulated instant of the forums' redesign (forum-redesign.ts); undefined: never. */
  readonly forumRedesignMs?: number | undefined;
  /** Small bounded counters, e.g. for `/flaky/ID` on status.test. */
  bump(key: string): number;
}

export interface Ctx {
  host: string;
  method: string;
  /** Path with query, as sent. */
  path: string;
  /** Path without the query (not percent-decoded). */
  pathname: string;
  /** Query string without `?` ('' when none). */
  search: string;
  query: URLSearchParams;
  req: IncomingMessage;
  res: ServerResponse;
  state: WebState;
  entry: RequestLogEntry;
}

/** A complete answer. `body` strings are sent as UTF-8. */
export interface Reply {
  status: number;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
}

/** Returns a reply, or null after answering (or deliberately not answering) through `ctx.res`. */
export type Handler = (ctx: Ctx) => Reply | null;
