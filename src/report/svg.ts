// Inline SVG charts: line charts, stacked columns and stacked rows, each with axes,
// tick labels, a legend and a title. Pure: data in, markup out. Every text passes
// through escapeHtml; nothing refers to anything outside the document.
import { escapeHtml } from './format.js';
import { type Axis, linear } from './scale.js';

export const WIDTH = 720;
const HEIGHT = 300;
const MARGIN = { top: 44, right: 24, bottom: 48, left: 64 };
/** Below this many points a line also shows its points as dots. */
const DOTS_BELOW = 40;

/** Coordinates rounded to 0.1 px keep the markup small. */
const r = (v: number) => Math.round(v * 10) / 10;

export interface LegendItem {
  label: string;
  color: string;
  /** A line (dashed or not), a filled box or a dot. */
  swatch: 'line' | 'dashed' | 'box' | 'dot';
}

/** An axis with its title and tick formatter. */
export interface AxisSpec extends Axis {
  label: string;
  format: (v: number) => string;
}

export interface LineSeries {
  label: string;
  color: string;
  dashed?: boolean;
  /** Dots only, no line (e.g. the moments something changed). @default false */
  dotsOnly?: boolean;
  points: readonly (readonly [x: number, y: number])[];
}

/** A vertical marker such as the relevance threshold. */
export interface Marker {
  x: number;
  label: string;
}

/** The outer <svg> with an accessible title. */
function svg(title: string, width: number, height: number, body: string[]): string {
  const t = escapeHtml(title);
  return `<svg class="chart" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-label="${t}"><title>${t}</title>${body.join('')}</svg>`;
}

/** Rough text width for layout: CJK and other wide characters count double. */
export function textWidth(s: string, px = 12): number {
  let w = 0;
  for (const ch of s) w += (ch.codePointAt(0) ?? 0) > 0x2e80 ? px : px * 0.6;
  return w;
}

/** The legend, one row across the top of the chart. */
export function legend(items: readonly LegendItem[], x0: number, y: number): string {
  let x = x0;
  const out: string[] = [];
  for (const it of items) {
    const c = escapeHtml(it.color);
    if (it.swatch === 'box') {
      out.push(`<rect x="${r(x)}" y="${y - 9}" width="12" height="12" fill="${c}"/>`);
    } else if (it.swatch === 'dot') {
      out.push(`<circle cx="${r(x + 8)}" cy="${y - 3}" r="4" fill="${c}"/>`);
    } else {
      const dash = it.swatch === 'dashed' ? ' stroke-dasharray="6 4"' : '';
      out.push(
        `<line x1="${r(x)}" y1="${y - 3}" x2="${r(x + 16)}" y2="${y - 3}" stroke="${c}" stroke-width="2.5"${dash}/>`,
      );
    }
    const tx = x + (it.swatch === 'box' ? 17 : 21);
    out.push(`<text x="${r(tx)}" y="${y + 1}">${escapeHtml(it.label)}</text>`);
    x = tx + textWidth(it.label) + 18;
  }
  return `<g class="legend">${out.join('')}</g>`;
}

interface Plot {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  sx: (v: number) => number;
  sy: (v: number) => number;
}

/** Grid lines, axis lines, tick labels and axis titles of a plot area. */
function axes(p: Plot, x: AxisSpec, y: AxisSpec): string {
  const out: string[] = [];
  for (const t of y.ticks) {
    const py = r(p.sy(t));
    out.push(`<line class="grid" x1="${p.x0}" y1="${py}" x2="${p.x1}" y2="${py}"/>`);
    out.push(
      `<text class="tick" x="${p.x0 - 6}" y="${py + 4}" text-anchor="end">${escapeHtml(y.format(t))}</text>`,
    );
  }
  for (const t of x.ticks) {
    const px = r(p.sx(t));
    out.push(`<line class="axis" x1="${px}" y1="${p.y0}" x2="${px}" y2="${p.y0 + 5}"/>`);
    out.push(
      `<text class="tick" x="${px}" y="${p.y0 + 18}" text-anchor="middle">${escapeHtml(x.format(t))}</text>`,
    );
  }
  out.push(`<line class="axis" x1="${p.x0}" y1="${p.y0}" x2="${p.x1}" y2="${p.y0}"/>`);
  out.push(`<line class="axis" x1="${p.x0}" y1="${p.y0}" x2="${p.x0}" y2="${p.y1}"/>`);
  out.push(
    `<text class="label" x="${r((p.x0 + p.x1) / 2)}" y="${p.y0 + 38}" text-anchor="middle">${escapeHtml(x.label)}</text>`,
  );
  const my = r((p.y0 + p.y1) / 2);
  out.push(
    `<text class="label" x="14" y="${my}" text-anchor="middle" transform="rotate(-90 14 ${my})">${escapeHtml(y.label)}</text>`,
  );
  return out.join('');
}

function plotFor(x: Axis, y: Axis, width: number, height: number, left = MARGIN.left): Plot {
  const x0 = left;
  const x1 = width - MARGIN.right;
  const y0 = height - MARGIN.bottom;
  const y1 = MARGIN.top;
  return { x0, x1, y0, y1, sx: linear(x.min, x.max, x0, x1), sy: linear(y.min, y.max, y0, y1) };
}

function markerLine(p: Plot, m: Marker): string {
  const px = r(p.sx(m.x));
  return `<line class="marker" x1="${px}" y1="${p.y0}" x2="${px}" y2="${p.y1 - 4}"/><text class="tick" x="${px + 4}" y="${p.y1 + 8}">${escapeHtml(m.label)}</text>`;
}

/** Lines over a shared x axis; short series also get dots so a single point shows. */
export function lineChart(o: {
  title: string;
  x: AxisSpec;
  y: AxisSpec;
  series: readonly LineSeries[];
}): string {
  const p = plotFor(o.x, o.y, WIDTH, HEIGHT);
  const body = [axes(p, o.x, o.y)];
  for (const s of o.series) {
    const c = escapeHtml(s.color);
    const pts = s.points.map(([x, y]) => `${r(p.sx(x))},${r(p.sy(y))}`);
    if (s.dotsOnly) {
      for (const [x, y] of s.points)
        body.push(`<circle cx="${r(p.sx(x))}" cy="${r(p.sy(y))}" r="3.5" fill="${c}"/>`);
      continue;
    }
    if (pts.length > 1) {
      const dash = s.dashed ? ' stroke-dasharray="6 4"' : '';
      body.push(`<polyline class="line" stroke="${c}"${dash} points="${pts.join(' ')}"/>`);
    }
    if (pts.length < DOTS_BELOW) {
      for (const [x, y] of s.points)
        body.push(`<circle cx="${r(p.sx(x))}" cy="${r(p.sy(y))}" r="3" fill="${c}"/>`);
    }
  }
  const items = o.series.map<LegendItem>((s) => ({
    label: s.label,
    color: s.color,
    swatch: s.dotsOnly ? 'dot' : s.dashed ? 'dashed' : 'line',
  }));
  body.push(legend(items, p.x0, 20));
  return svg(o.title, WIDTH, HEIGHT, body);
}

export interface Stack {
  label: string;
  color: string;
  /** One value per column (or row). */
  values: readonly number[];
}

/**
 * Stacked columns over equal slots of the x axis (slot i spans
 * [x.min + i·w, x.min + (i+1)·w], w = (x.max − x.min) / slots).
 */
export function stackedColumns(o: {
  title: string;
  x: AxisSpec;
  y: AxisSpec;
  stacks: readonly Stack[];
  marker?: Marker;
}): string {
  const slots = Math.max(0, ...o.stacks.map((s) => s.values.length));
  const p = plotFor(o.x, o.y, WIDTH, HEIGHT);
  const body = [axes(p, o.x, o.y)];
  const w = (o.x.max - o.x.min) / Math.max(1, slots);
  for (let i = 0; i < slots; i++) {
    let base = 0;
    const left = r(p.sx(o.x.min + i * w) + 1);
    const width = r(Math.max(1, p.sx(o.x.min + (i + 1) * w) - p.sx(o.x.min + i * w) - 2));
    for (const s of o.stacks) {
      const v = s.values[i] ?? 0;
      if (v <= 0) continue;
      const top = p.sy(base + v);
      const h = p.sy(base) - top;
      body.push(
        `<rect x="${left}" y="${r(top)}" width="${width}" height="${r(h)}" fill="${escapeHtml(s.color)}"><title>${escapeHtml(`${s.label}: ${v}`)}</title></rect>`,
      );
      base += v;
    }
  }
  if (o.marker) body.push(markerLine(p, o.marker));
  const items = o.stacks.map<LegendItem>((s) => ({
    label: s.label,
    color: s.color,
    swatch: 'box',
  }));
  if (o.marker) items.push({ label: o.marker.label, color: '#333', swatch: 'dashed' });
  body.push(legend(items, p.x0, 20));
  return svg(o.title, WIDTH, HEIGHT, body);
}

const ROW = 24;

/** Stacked horizontal bars, one row per category label (e.g. per host). */
export function stackedRows(o: {
  title: string;
  rows: readonly string[];
  x: AxisSpec;
  stacks: readonly Stack[];
}): string {
  const labelWidth = Math.min(260, Math.max(80, ...o.rows.map((l) => textWidth(l) + 12)));
  const height = MARGIN.top + o.rows.length * ROW + MARGIN.bottom;
  const y: Axis = { min: 0, max: o.rows.length, ticks: [] };
  const p = plotFor(o.x, y, WIDTH, height, labelWidth);
  const body: string[] = [];
  for (const t of o.x.ticks) {
    const px = r(p.sx(t));
    body.push(`<line class="grid" x1="${px}" y1="${p.y0}" x2="${px}" y2="${p.y1}"/>`);
    body.push(
      `<text class="tick" x="${px}" y="${p.y0 + 18}" text-anchor="middle">${escapeHtml(o.x.format(t))}</text>`,
    );
  }
  o.rows.forEach((label, i) => {
    const top = p.y1 + i * ROW;
    body.push(
      `<text class="tick" x="${p.x0 - 6}" y="${top + ROW / 2 + 4}" text-anchor="end">${escapeHtml(label)}</text>`,
    );
    let base = 0;
    for (const s of o.stacks) {
      const v = s.values[i] ?? 0;
      if (v <= 0) continue;
      const x = p.sx(base);
      body.push(
        `<rect x="${r(x)}" y="${top + 3}" width="${r(Math.max(1, p.sx(base + v) - x))}" height="${ROW - 6}" fill="${escapeHtml(s.color)}"><title>${escapeHtml(`${label} ${s.label}: ${v}`)}</title></rect>`,
      );
      base += v;
    }
  });
  body.push(`<line class="axis" x1="${p.x0}" y1="${p.y0}" x2="${p.x1}" y2="${p.y0}"/>`);
  body.push(`<line class="axis" x1="${p.x0}" y1="${p.y0}" x2="${p.x0}" y2="${p.y1}"/>`);
  body.push(
    `<text class="label" x="${r((p.x0 + p.x1) / 2)}" y="${p.y0 + 38}" text-anchor="middle">${escapeHtml(o.x.label)}</text>`,
  );
  const items = o.stacks.map<LegendItem>((s) => ({
    label: s.label,
    color: s.color,
    swatch: 'box',
  }));
  body.push(legend(items, p.x0, 20));
  return svg(o.title, WIDTH, height, body);
}
