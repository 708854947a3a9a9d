/**
 * Example documents for learning, from the sources a user names:
 *
 * - an http(s) URL: fetched (robots.txt, politeness and every fetcher option apply);
 * - a folder: every `.html`/`.htm`/`.txt` file in it and its sub-folders, in path order
 *   (HTML reduced to its title and visible text by the parse stage, text files decoded
 *   with the same charset detection as fetched pages);
 * - a `.html`/`.htm` file: that one document;
 * - a labels file (JSON, as `focuscrawl testweb labels` writes): its relevant URLs,
 *   fetched; `FILE#TOPIC` picks a topic of a file that labels several;
 * - any other file: a list of URLs, one per line (blank lines and `#` comments skipped).
 *
 * A source that cannot be read, or a URL list line that is not an http(s) URL, is a
 * `LearnError` naming it. A page that cannot be fetched (network error, robots.txt,
 * HTTP 4xx/5xx, not text) is skipped with a warning: one dead link should not stop a
 * learning run.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isFocusCrawlError, LearnError } from '../errors/index.js';
import { createFetcher, type Fetcher, type FetcherOptionsInput } from '../fetch/index.js';
import { parseLabels } from '../labels/index.js';
import { analyzeBody } from '../parse/index.js';
import { canonicalizeUrl } from '../url/index.js';

export interface ExampleDocument {
  /** The URL or file path it came from. */
  source: string;
  title: string;
  /** Visible text. */
  text: string;
}

export interface SkippedSource {
  source: string;
  reason: string;
}

const DOCUMENT_EXT = new Set(['.html', '.htm', '.txt']);
const isUrl = (s: string) => /^https?:\/\//i.test(s);

function why(cause: unknown): string {
  const code = (cause as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file or folder';
  if (code === 'EACCES') return 'permission denied';
  if (code === 'EISDIR') return 'is a folder';
  return code ?? String((cause as Error).message ?? cause);
}

async function walk(dir: string, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) await walk(p, out);
    else if (e.isFile() && DOCUMENT_EXT.has(extname(e.name).toLowerCase())) out.push(p);
  }
}

/** A document from a file's bytes; undefined when it holds no text. */
function fileDocument(path: string, body: Buffer): ExampleDocument | undefined {
  const html = extname(path).toLowerCase() !== '.txt';
  const a = analyzeBody(body, html ? 'text/html' : 'text/plain', pathToFileURL(resolve(path)).href);
  const text = (a.page?.text ?? a.text ?? '').trim();
  const title = a.page?.title ?? '';
  if (text === '' && title === '') return undefined;
  return { source: path, title, text };
}

/** URLs of a URL list file; a bad line is a LearnError naming file and line. */
function urlList(path: string, content: string): string[] {
  const urls: string[] = [];
  const lines = content.replace(/^\ufeff/, '').split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const url = isUrl(line) ? canonicalizeUrl(line) : null;
    if (url === null) {
      throw new LearnError(
        `${path}:${i + 1}: ${JSON.stringify(line.slice(0, 200))} is not an http(s) URL (a file that is not .html/.htm is read as a list of URLs, one per line; put text documents in a folder)`,
      );
    }
    urls.push(url);
  });
  return urls;
}

/** `FILE#TOPIC` → the file and the topic, when FILE exists (a `#` may be part of a name). */
async function labelsTopic(src: string): Promise<{ path: string; topic: string | undefined }> {
  const hash = src.lastIndexOf('#');
  if (hash <= 0 || hash === src.length - 1) return { path: src, topic: undefined };
  const path = src.slice(0, hash);
  try {
    if ((await stat(path)).isFile()) return { path, topic: src.slice(hash + 1) };
  } catch {
    // not FILE#TOPIC: the whole source is a name
  }
  return { path: src, topic: undefined };
}

/** The relevant URLs of a labels file (one topic), in file order. */
async function labelledUrls(
  path: string,
  topic: string | undefined,
  flag: string,
  content?: string,
): Promise<string[]> {
  let text = content;
  if (text === undefined) {
    try {
      text = await readFile(path, 'utf8');
    } catch (cause) {
      throw new LearnError(`${flag} ${path}: cannot read (${why(cause)})`, { cause });
    }
  }
  try {
    return [...parseLabels(text, path, topic === undefined ? {} : { topic }).relevant];
  } catch (cause) {
    if (isFocusCrawlError(cause)) throw new LearnError(`${flag} ${cause.message}`, { cause });
    throw cause;
  }
}

/** Resolves sources to files to read and URLs to fetch (URLs deduplicated, in order). */
export async function expandSources(
  sources: readonly string[],
  flag: string,
): Promise<{ files: string[]; urls: string[] }> {
  const files: string[] = [];
  const urls: string[] = [];
  for (const src of sources) {
    if (isUrl(src)) {
      const url = canonicalizeUrl(src);
      if (url === null)
        throw new LearnError(`${flag} ${src}: not a valid http(s) URL`, { url: src });
      urls.push(url);
      continue;
    }
    const { path, topic } = await labelsTopic(src);
    if (topic !== undefined) {
      urls.push(...(await labelledUrls(path, topic, flag)));
      continue;
    }
    let isDir: boolean;
    try {
      isDir = (await stat(src)).isDirectory();
    } catch (cause) {
      throw new LearnError(`${flag} ${src}: cannot read (${why(cause)})`, { cause });
    }
    if (isDir) {
      const found: string[] = [];
      try {
        await walk(src, found);
      } catch (cause) {
        throw new LearnError(`${flag} ${src}: cannot read the folder (${why(cause)})`, { cause });
      }
      if (found.length === 0) {
        throw new LearnError(`${flag} ${src}: the folder holds no .html, .htm or .txt file`);
      }
      files.push(...found);
    } else if (
      DOCUMENT_EXT.has(extname(src).toLowerCase()) &&
      extname(src).toLowerCase() !== '.txt'
    ) {
      files.push(src);
    } else {
      let content: string;
      try {
        content = await readFile(src, 'utf8');
      } catch (cause) {
        throw new LearnError(`${flag} ${src}: cannot read (${why(cause)})`, { cause });
      }
      if (
        content
          .replace(/^\ufeff/, '')
          .trimStart()
          .startsWith('{')
      ) {
        urls.push(...(await labelledUrls(src, undefined, flag, content)));
      } else urls.push(...urlList(src, content));
    }
  }
  return { files: [...new Set(files)], urls: [...new Set(urls)] };
}

/** Reads the files and fetches the URLs; what yields no text is skipped and reported. */
export async function loadDocuments(
  sources: { files: readonly string[]; urls: readonly string[] },
  fetcher: Fetcher | undefined,
): Promise<{ documents: ExampleDocument[]; skipped: SkippedSource[] }> {
  const skipped: SkippedSource[] = [];
  const fromFiles: (ExampleDocument | undefined)[] = [];
  for (const path of sources.files) {
    let body: Buffer;
    try {
      body = await readFile(path);
    } catch (cause) {
      throw new LearnError(`${path}: cannot read (${why(cause)})`, { cause });
    }
    const doc = fileDocument(path, body);
    if (doc === undefined) skipped.push({ source: path, reason: 'no text' });
    fromFiles.push(doc);
  }
  const fromUrls = await Promise.all(
    sources.urls.map(async (url): Promise<ExampleDocument | undefined> => {
      if (fetcher === undefined) return undefined;
      try {
        const res = await fetcher.fetch(url);
        if (res.status >= 400) {
          skipped.push({ source: url, reason: `HTTP ${res.status}` });
          return undefined;
        }
        const a = analyzeBody(res.body, res.contentType, res.finalUrl);
        const text = (a.page?.text ?? a.text ?? '').trim();
        const title = a.page?.title ?? '';
        if (text === '' && title === '') {
          skipped.push({ source: url, reason: `no text (${a.content})` });
          return undefined;
        }
        return { source: url, title, text };
      } catch (e) {
        const err = e as { code?: string; message?: string };
        skipped.push({
          source: url,
          reason: `${err.code ?? 'error'}: ${err.message ?? String(e)}`,
        });
        return undefined;
      }
    }),
  );
  const documents = [...fromFiles, ...fromUrls].filter(
    (d): d is ExampleDocument => d !== undefined,
  );
  return { documents, skipped };
}

/** Positive and negative examples, read and fetched with one fetcher. */
export interface LoadedExamples {
  positive: ExampleDocument[];
  negative: ExampleDocument[];
  skipped: SkippedSource[];
}

/**
 * Expands and loads both sides' sources (one fetcher, closed afterwards), reports each
 * skipped source to `onSkip`, and requires a usable example on each side listed in
 * `required` (a LearnError naming the first skipped source otherwise).
 */
export async function loadExamples(
  positive: readonly string[],
  negative: readonly string[],
  fetcherOptions: FetcherOptionsInput | undefined,
  onSkip: ((s: SkippedSource) => void) | undefined,
  required: readonly ('positive' | 'negative')[],
): Promise<LoadedExamples> {
  const pos = await expandSources(positive, '--positive');
  const neg = await expandSources(negative, '--negative');
  const needsFetcher = pos.urls.length + neg.urls.length > 0;
  const fetcher = needsFetcher ? createFetcher(fetcherOptions ?? {}) : undefined;
  let p: Awaited<ReturnType<typeof loadDocuments>>;
  let n: Awaited<ReturnType<typeof loadDocuments>>;
  try {
    [p, n] = await Promise.all([loadDocuments(pos, fetcher), loadDocuments(neg, fetcher)]);
  } finally {
    await fetcher?.close();
  }
  const skipped = [...p.skipped, ...n.skipped];
  for (const s of skipped) onSkip?.(s);
  const sides = { positive: [p.documents, pos], negative: [n.documents, neg] } as const;
  for (const side of required) {
    const [docs, given] = sides[side];
    if (docs.length > 0) continue;
    const first = skipped[0];
    throw new LearnError(
      `no usable ${side} example: all ${given.files.length + given.urls.length} were skipped${first ? ` (${first.source}: ${first.reason}${skipped.length > 1 ? ', …' : ''})` : ''}`,
    );
  }
  return { positive: p.documents, negative: n.documents, skipped };
}
