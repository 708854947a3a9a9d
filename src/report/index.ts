// Public surface of the report stage: a self-contained HTML crawl report with charts.
import { rename, rm, writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import type { Store } from '../store/index.js';
import { gatherReport, type ReportData } from './gather.js';
import { renderReport } from './html.js';

export { COLORS, PALETTE } from './charts.js';
export {
  clip,
  displayUrl,
  escapeHtml,
  formatAxisNumber,
  formatTime,
  safeHref,
} from './format.js';
export type { ReportData, RunRow, TimelinePoint, TopPage } from './gather.js';
export { gatherReport } from './gather.js';
export { renderReport } from './html.js';
export { CSP, htmlDocument } from './page.js';
export type { RateBin, RevisitReport, VisitBucket } from './revisits.js';
export { type Axis, countAxis, niceAxis, UNIT_AXIS } from './scale.js';
export { type AxisSpec, type LineSeries, lineChart } from './svg.js';

export const reportOptionsSchema = z.strictObject({
  /**
   * The page's title and heading.
   * @default `Crawl report: <topic name>`, or `Crawl report` without a topic name
   */
  title: z.string().min(1).optional(),
  /**
   * Pages listed in the top-pages table (0: none).
   * @default 25
   */
  topPages: z.number().int().min(0).max(10_000).default(25),
  /**
   * Hosts in the top-hosts chart and table.
   * @default 10
   */
  topHosts: z.number().int().min(0).max(1000).default(10),
  /**
   * The report's time (ms since the epoch): shown as "generated", and used to tell
   * a running crawl from one whose process died.
   * @default Date.now()
   */
  now: z.number().finite().optional(),
  /**
   * The store's path, shown in the header.
   * @default not shown
   */
  storePath: z.string().optional(),
});

export type ReportOptionsInput = z.input<typeof reportOptionsSchema>;

function parseOptions(input: ReportOptionsInput | undefined) {
  const r = reportOptionsSchema.safeParse(input ?? {});
  if (r.success) return r.data;
  const problems = r.error.issues.map(
    (i) => `${i.path.length > 0 ? i.path.join('.') : '(options)'}: ${i.message}`,
  );
  throw new InvalidOptionError(`invalid report options: ${problems.join('; ')}`, {
    cause: r.error,
  });
}

/** The default title: from the topic's name when the store records one. */
function defaultTitle(d: ReportData): string {
  return d.topic.name === null ? 'Crawl report' : `Crawl report: ${d.topic.name}`;
}

/**
 * Reads a store (a read-only one will do, also while a crawl runs) and returns the
 * report as one self-contained HTML document: statistics, harvest rate, relevance
 * histogram, URL states over time, top pages and top hosts.
 */
export async function buildReport(store: Store, options?: ReportOptionsInput): Promise<string> {
  const o = parseOptions(options);
  const data = await gatherReport(store, {
    topPages: o.topPages,
    topHosts: o.topHosts,
    now: o.now ?? Date.now(),
    storePath: o.storePath ?? null,
  });
  return renderReport(data, { title: o.title ?? defaultTitle(data), topPages: o.topPages });
}

/**
 * Builds the report and writes it to `outFile` (through `outFile.tmp`, renamed into
 * place, so that a reader never sees half a report). Resolves to the bytes written.
 */
export async function writeReport(
  store: Store,
  outFile: string,
  options?: ReportOptionsInput,
): Promise<{ file: string; bytes: number }> {
  const html = await buildReport(store, options);
  const tmp = `${outFile}.tmp`;
  const buf = Buffer.from(html, 'utf8');
  try {
    await writeFile(tmp, buf);
    await rename(tmp, outFile);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return { file: outFile, bytes: buf.length };
}
