// The options of an export (`exportOptionsSchema`, docs/export.md).
import { z } from 'zod';
import { InvalidOptionError } from '../errors/index.js';
import { SQL_DIALECTS } from './sql.js';

export const EXPORT_WHATS = ['history', 'pages', 'urls', 'links', 'changes', 'records'] as const;
export type ExportWhat = (typeof EXPORT_WHATS)[number];
/** The states of a fetched page, which `state` may pick with `what: 'pages'`. */
export const PAGE_STATES = ['complete', 'discard'] as const;
export const EXPORT_FORMATS = ['jsonl', 'csv', 'xml', 'html', 'sql', 'warc'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
/** The formats written as text (UTF-8): all but `warc`, which is binary. */
export type TextExportFormat = Exclude<ExportFormat, 'warc'>;

export const exportOptionsSchema = z
  .strictObject({
    /**
     * The table: fetch history, fetched pages, known URLs, links, recorded revisits,
     * or records (one per page and rule set that extracted fields from it).
     */
    what: z.enum(EXPORT_WHATS),
    /** @default 'jsonl' */
    format: z.enum(EXPORT_FORMATS).default('jsonl'),
    /**
     * Only URLs in this state (`what: 'urls'`), or only the pages in this state
     * (`what: 'pages'`: `complete`, the kept pages, or `discard`). @default every state
     */
    state: z.enum(['waiting', 'processing', 'complete', 'discard', 'error', 'redirect']).optional(),
    /**
     * Pages: add a `text` field with the visible text, extracted from the stored body
     * (null when no body was stored or it is not text). Not used by `warc`.
     * @default true
     */
    text: z.boolean().default(true),
    /** CSV: begin with a UTF-8 byte-order mark (for Excel). @default false */
    bom: z.boolean().default(false),
    /** SQL: the database the script is for (`format: 'sql'` only). @default 'sqlite' */
    dialect: z.enum(SQL_DIALECTS).optional(),
    /**
     * What the export is of, e.g. the store's directory: named in the HTML page's
     * title and in the WARC warcinfo record. @default none
     */
    source: z.string().optional(),
    /** Page bodies read at a time: parsed for `text`, or made into WARC records. @default 8 */
    bodyConcurrency: z.number().int().min(1).max(256).default(8),
  })
  .refine((o) => o.state === undefined || o.what === 'urls' || o.what === 'pages', {
    message: 'state applies to what "urls" or "pages" only',
    path: ['state'],
  })
  .refine(
    (o) => o.what !== 'pages' || o.state === undefined || PAGE_STATES.includes(o.state as never),
    { message: 'a page is "complete" (kept) or "discard"', path: ['state'] },
  )
  .refine((o) => !o.bom || o.format === 'csv', {
    message: 'bom applies to format "csv" only',
    path: ['bom'],
  })
  .refine((o) => o.dialect === undefined || o.format === 'sql', {
    message: 'dialect applies to format "sql" only',
    path: ['dialect'],
  })
  .refine((o) => o.format !== 'warc' || o.what === 'pages', {
    message: 'format "warc" writes the stored pages: what must be "pages"',
    path: ['what'],
  });

export type ExportOptionsInput = z.input<typeof exportOptionsSchema>;
export type ExportOptions = z.output<typeof exportOptionsSchema>;
/** Options of an export written as text (every format but `warc`). */
export type TextExportOptionsInput = ExportOptionsInput & {
  format?: TextExportFormat | undefined;
};

export function parseExportOptions(input: ExportOptionsInput): ExportOptions {
  const r = exportOptionsSchema.safeParse(input);
  if (r.success) return r.data;
  const problems = r.error.issues.map((i) => {
    const field = i.path.length > 0 ? i.path.join('.') : '(options)';
    return `${field}: ${i.message}`;
  });
  throw new InvalidOptionError(`invalid export options: ${problems.join('; ')}`, {
    cause: r.error,
  });
}
