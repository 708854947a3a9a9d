// The dashboard's charts, drawn by uPlot (the global `uPlot` of uplot.iife.min.js).

import { count, fill, h, percent, rate, score } from './dom.js';

/** Colour-blind-safe colours (Okabe–Ito), as in the report. */
export const COLORS = {
  kept: '#009E73',
  discarded: '#E69F00',
  failed: '#D55E00',
  line: '#0072B2',
  accent: '#CC79A7',
};

/** Samples of the live pages/s chart kept: 5 minutes of one event a second. */
const LIVE_SAMPLES = 300;

/** Bins of the relevance histogram over [0, 1]. */
export const HISTOGRAM_BINS = 20;

const plotLib = () => globalThis.uPlot;

/**
 * One chart in `box`: a uPlot made on the first data, then fed with setData; a
 * sentence instead while there is nothing to draw (or when uPlot did not load).
 */
class Chart {
  constructor(box, makeOptions) {
    this.box = box;
    this.makeOptions = makeOptions;
    this.plot = null;
    this.note = h('p', { class: 'chart-note' });
    this.area = h('div', { class: 'chart-area' });
    fill(box, this.area, this.note);
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => this.plot?.setSize(this.size())).observe(box);
    }
  }

  size() {
    return { width: Math.max(200, this.box.clientWidth - 4), height: 180 };
  }

  /** Draws `data` (uPlot's aligned arrays), or shows `empty` when it is null. */
  show(data, empty) {
    this.box.dataset.points = data === null ? '0' : String(data[0].length);
    if (data === null) {
      this.note.textContent = empty;
      this.area.hidden = true;
      return;
    }
    const U = plotLib();
    if (U === undefined) {
      this.note.textContent = 'Charts need uPlot, which did not load.';
      return;
    }
    this.note.textContent = '';
    this.area.hidden = false;
    if (this.plot === null) {
      this.plot = new U({ ...this.size(), ...this.makeOptions(U) }, data, this.area);
    } else {
      this.plot.setData(data);
    }
  }
}

const axis = (label, o = {}) => ({ label, stroke: '#555', grid: { stroke: '#eee' }, ...o });
const line = (label, stroke, o = {}) => ({
  label,
  stroke,
  width: 2,
  points: { show: false },
  ...o,
});

/** Pages per second as the live events bring them. */
export class LiveRateChart {
  constructor(box) {
    this.times = [];
    this.values = [];
    this.chart = new Chart(box, () => ({
      legend: { show: false },
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max * 1.15)] } },
      axes: [axis(null), axis('pages/s', { values: (_u, ts) => ts.map((v) => rate(v)) })],
      series: [{}, line('pages/s', COLORS.line, { fill: 'rgba(0,114,178,0.12)' })],
    }));
    this.chart.show(null, 'Waiting for the first live figures…');
  }

  /** Adds a sample: `at` ms since the epoch, `value` pages/s (null skipped). */
  add(at, value) {
    if (typeof value !== 'number' || !Number.isFinite(value)) return;
    // A status served again (the server reuses one for a second) is no new sample.
    if (this.times.length > 0 && at / 1000 <= this.times[this.times.length - 1]) return;
    this.times.push(at / 1000);
    this.values.push(value);
    if (this.times.length > LIVE_SAMPLES) {
      this.times.shift();
      this.values.shift();
    }
    this.chart.show([this.times, this.values], '');
  }
}

/** Fetches kept, discarded and failed per time bucket, and the harvest rate. */
export class ActivityChart {
  constructor(box) {
    this.chart = new Chart(box, () => ({
      scales: { h: { range: [0, 1] } },
      axes: [
        axis(null),
        axis('pages / bucket', { values: (_u, ts) => ts.map((v) => count(v)) }),
        axis('harvest rate', {
          scale: 'h',
          side: 1,
          grid: { show: false },
          values: (_u, ts) => ts.map((v) => percent(v, 0)),
        }),
      ],
      series: [
        {},
        line('kept', COLORS.kept),
        line('discarded', COLORS.discarded),
        line('failed', COLORS.failed),
        line('harvest rate', COLORS.accent, { scale: 'h', dash: [6, 4], spanGaps: true }),
      ],
    }));
    this.chart.show(null, 'No fetches yet.');
  }

  /** `buckets`: `{ at, fetched, kept, discarded, failed }` oldest first. */
  update(buckets) {
    if (buckets.length === 0) {
      this.chart.show(null, 'No fetches yet.');
      return;
    }
    const judged = (b) => b.kept + b.discarded;
    this.chart.show(
      [
        buckets.map((b) => b.at / 1000),
        buckets.map((b) => b.kept),
        buckets.map((b) => b.discarded),
        buckets.map((b) => b.failed),
        buckets.map((b) => (judged(b) > 0 ? b.kept / judged(b) : null)),
      ],
      '',
    );
  }
}

/** Bins of `rows`' relevance over [0, 1], kept and discarded apart. */
export function histogram(rows, bins = HISTOGRAM_BINS) {
  const kept = new Array(bins).fill(0);
  const discarded = new Array(bins).fill(0);
  for (const r of rows) {
    if (typeof r.relevance !== 'number' || !Number.isFinite(r.relevance)) continue;
    const i = Math.min(bins - 1, Math.max(0, Math.floor(r.relevance * bins)));
    if (r.state === 'complete') kept[i]++;
    else if (r.state === 'discard') discarded[i]++;
  }
  const centers = kept.map((_, i) => (i + 0.5) / bins);
  return { centers, kept, discarded };
}

/** The relevance of a sample of fetched pages, kept and discarded side by side. */
export class HistogramChart {
  constructor(box) {
    this.chart = new Chart(box, (U) => {
      const bars = (align) => U.paths.bars({ size: [0.45, 40], align });
      return {
        scales: { x: { time: false, range: [0, 1] } },
        axes: [
          axis('relevance', { values: (_u, ts) => ts.map((v) => score(v, 1)) }),
          axis('pages', { values: (_u, ts) => ts.map((v) => count(v)) }),
        ],
        series: [
          { label: 'relevance', value: (_u, v) => score(v, 3) },
          {
            label: 'kept',
            fill: COLORS.kept,
            stroke: COLORS.kept,
            paths: bars(-1),
            points: { show: false },
          },
          {
            label: 'discarded',
            fill: COLORS.discarded,
            stroke: COLORS.discarded,
            paths: bars(1),
            points: { show: false },
          },
        ],
      };
    });
    this.chart.show(null, 'No pages fetched yet.');
  }

  update(rows) {
    const hgram = histogram(rows);
    const total =
      hgram.kept.reduce((a, b) => a + b, 0) + hgram.discarded.reduce((a, b) => a + b, 0);
    this.chart.show(
      total === 0 ? null : [hgram.centers, hgram.kept, hgram.discarded],
      'No pages fetched yet.',
    );
    return total;
  }
}

/** The keep/discard threshold over time (each change a step). */
export class ThresholdChart {
  constructor(box) {
    this.chart = new Chart(box, (U) => ({
      legend: { show: false },
      scales: {
        y: { range: (_u, min, max) => [Math.max(0, min - 0.05), Math.min(1, max + 0.05)] },
      },
      axes: [axis(null), axis('threshold', { values: (_u, ts) => ts.map((v) => score(v, 2)) })],
      series: [{}, line('threshold', COLORS.line, { paths: U.paths.stepped({ align: 1 }) })],
    }));
    this.chart.show(null, 'The threshold has not changed.');
  }

  /**
   * `changes`: `{ at, from, to }` oldest first; `now` extends the last step to the
   * present. Without a change, a sentence with the threshold `value` in force.
   */
  update(changes, now, value) {
    if (changes.length === 0) {
      this.chart.show(
        null,
        typeof value === 'number'
          ? `Fixed at ${score(value)}: not changed.`
          : 'No threshold recorded.',
      );
      return;
    }
    const xs = [changes[0].at / 1000 - 1];
    const ys = [changes[0].from];
    for (const c of changes) {
      xs.push(c.at / 1000);
      ys.push(c.to);
    }
    if (now / 1000 > xs[xs.length - 1]) {
      xs.push(now / 1000);
      ys.push(ys[ys.length - 1]);
    }
    this.chart.show([xs, ys], '');
  }
}
