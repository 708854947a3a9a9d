/** Small pieces the engine's loop runs on. */
import { setMaxListeners } from 'node:events';
import { isFocusCrawlError } from '../errors/index.js';

export function abortController(): AbortController {
  const c = new AbortController();
  setMaxListeners(0, c.signal); // one listener per fetch in flight
  return c;
}

/** Resolves waiters whenever something changes (a fetch ends, a commit lands, a timer fires). */
export class Wakeup {
  #waiters: (() => void)[] = [];
  wait(): Promise<void> {
    return new Promise((r) => this.#waiters.push(r));
  }
  notify(): void {
    const w = this.#waiters;
    this.#waiters = [];
    for (const r of w) r();
  }
}

export function errorText(e: unknown): string {
  if (isFocusCrawlError(e)) return `${e.code}: ${e.message}`;
  return e instanceof Error ? e.message : String(e);
}
