/**
 * Which dispatcher, connection origin and headers a request uses.
 *
 * By default a request goes to the per-origin pools of the main agent (or to
 * the proxy). Plain-HTTP hosts mapped by `resolve` are one server reached at
 * one address: they share one keep-alive pool for that address, and the Host
 * header tells the virtual hosts apart (HTTPS keeps per-origin pools, since the
 * TLS server name belongs to the connection).
 */
import type { Dispatcher } from 'undici';
import type { HostResolver } from './connect.js';

export interface Route {
  dispatcher: Dispatcher;
  /** Origin of the connection pool. */
  origin: string;
  /** Request headers (flat), the Host header included when it differs from `origin`. */
  headers: string[];
}

const MAX_CACHED = 10_000;

export class Router {
  readonly #cache = new Map<string, Route | null>();
  readonly #resolver: HostResolver;
  readonly #shared: Dispatcher;
  readonly #headers: string[];

  constructor(resolver: HostResolver, shared: Dispatcher, headers: string[]) {
    this.#resolver = resolver;
    this.#shared = shared;
    this.#headers = headers;
  }

  /**
   * The shared route of a plain-HTTP host mapped by `resolve`, or undefined.
   * `host` is `hostname[:port]` of the URL.
   */
  mappedHttp(protocol: string, host: string, hostname: string, port: string): Route | undefined {
    if (this.#resolver.size === 0 || protocol !== 'http:') return undefined;
    let route = this.#cache.get(host);
    if (route === undefined) {
      const rule = this.#resolver.match(hostname);
      if (rule === undefined) {
        route = null;
      } else {
        const address = rule.address.includes(':') ? `[${rule.address}]` : rule.address;
        route = {
          dispatcher: this.#shared,
          origin: `http://${address}:${rule.port ?? (port === '' ? 80 : port)}`,
          headers: [...this.#headers, 'host', host],
        };
      }
      if (this.#cache.size >= MAX_CACHED) this.#cache.clear();
      this.#cache.set(host, route);
    }
    return route ?? undefined;
  }
}
