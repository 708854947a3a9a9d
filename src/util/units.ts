// Human-readable figures for tables: counts, bytes, durations, rates. Pure.

/** `1234567` → `1,234,567`. Non-integers keep up to `digits` decimals. */
export function formatCount(n: number, digits = 0): string {
  const [int = '', frac] = n.toFixed(digits).split('.');
  const grouped = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return frac === undefined ? grouped : `${grouped}.${frac}`;
}

const BYTE_UNITS = ['KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** Binary units, as the CLI's size flags read them: `1536` → `1.5 KiB`, `512` → `512 B`. */
export function formatBytes(n: number): string {
  if (Math.abs(n) < 1024) return `${n} B`;
  let v = n;
  let unit = 'B';
  for (const u of BYTE_UNITS) {
    if (Math.abs(v) < 1024) break;
    v /= 1024;
    unit = u;
  }
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${unit}`;
}

/**
 * Durations in the style of DESIGN 1.1's table: `850 ms`, `42.5s`, `12m59s`,
 * `3h02m05s`, `2d03h04m`.
 */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const s = Math.floor(ms / 1000);
  const pad = (x: number) => String(x).padStart(2, '0');
  const sec = s % 60;
  const min = Math.floor(s / 60) % 60;
  const hours = Math.floor(s / 3600);
  if (hours === 0) return `${min}m${pad(sec)}s`;
  if (hours < 24) return `${hours}h${pad(min)}m${pad(sec)}s`;
  return `${Math.floor(hours / 24)}d${pad(hours % 24)}h${pad(min)}m`;
}

/** `0.6213` → `62.1%`; null → `–`. */
export function formatPercent(x: number | null): string {
  return x === null ? '–' : `${(x * 100).toFixed(1)}%`;
}

/** A time as ISO 8601 in UTC without milliseconds: `2024-05-01T12:00:00Z`; null → `–`. */
export function formatTime(ms: number | null): string {
  return ms === null ? '–' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
