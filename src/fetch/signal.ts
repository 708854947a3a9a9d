/** AbortSignal helpers: the caller's signal ends waits with AbortedError. */
import { setTimeout as sleepMs } from 'node:timers/promises';
import { AbortedError } from '../errors/index.js';

/** The AbortedError for an aborted signal (its reason kept as the cause). */
export function abortReason(signal: AbortSignal): Error {
  const r: unknown = signal.reason;
  if (r instanceof AbortedError) return r;
  return new AbortedError(
    `the request was aborted${r instanceof Error ? `: ${r.message}` : ''}`,
    r === undefined ? {} : { cause: r },
  );
}

/** Waits `ms`; rejects with AbortedError when `signal` aborts. */
export async function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0 && signal === undefined) return;
  try {
    await sleepMs(ms, undefined, signal === undefined ? undefined : { signal });
  } catch {
    throw abortReason(signal!);
  }
}

/** Settles like `p`, or rejects with AbortedError as soon as `signal` aborts. */
export function raceSignal<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
