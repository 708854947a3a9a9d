/** The elementary checks of store input, shared by validate.ts and validate-redirects.ts. */
import { InvalidOptionError } from '../errors/index.js';

export function fail(where: string, message: string): never {
  throw new InvalidOptionError(`${where}: ${message}`);
}

export function show(v: unknown): string {
  if (typeof v === 'string') return JSON.stringify(v.length > 80 ? `${v.slice(0, 80)}…` : v);
  if (typeof v === 'number' || typeof v === 'boolean' || v == null) return String(v);
  return typeof v;
}

export function checkUrl(where: string, url: unknown): asserts url is string {
  if (typeof url !== 'string' || !(url.startsWith('http://') || url.startsWith('https://'))) {
    fail(where, `expected an absolute http(s) URL, got ${show(url)}`);
  }
}

export function checkFinite(where: string, v: unknown): asserts v is number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    fail(where, `expected a finite number, got ${show(v)}`);
}

export function checkInt(where: string, v: unknown, min: number): asserts v is number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) {
    fail(where, `expected an integer ≥ ${min}, got ${show(v)}`);
  }
}

/** An optional duration in ms: absent, or a finite number ≥ 0. */
export function checkOptMs(where: string, v: unknown): void {
  if (v !== undefined && !(typeof v === 'number' && Number.isFinite(v) && v >= 0)) {
    fail(where, `expected a number of ms ≥ 0, got ${show(v)}`);
  }
}

export function checkOptString(where: string, v: unknown): void {
  if (v !== undefined && v !== null && typeof v !== 'string') {
    fail(where, `expected a string, got ${show(v)}`);
  }
}

export function checkArray(where: string, v: unknown): asserts v is readonly unknown[] {
  if (!Array.isArray(v)) fail(where, `expected an array, got ${show(v)}`);
}

export function isHttpUrl(url: unknown): url is string {
  return typeof url === 'string' && (url.startsWith('http://') || url.startsWith('https://'));
}

export function isOptString(v: unknown): boolean {
  return v === undefined || v === null || typeof v === 'string';
}

export function isFiniteNumber(v: unknown): v is number {
  return typeof v === 'number' && Number.isFinite(v);
}
