// Files written by `evaluate` and `compare`: through `FILE.tmp`, renamed into place,
// so that a reader never sees half a page.
import { rename, rm, writeFile } from 'node:fs/promises';
import { renderEvaluation } from './html.js';
import type { StoreEvaluation } from './store.js';

/** Writes `text` to `file` through `file.tmp`; resolves to the bytes written. */
export async function writeAtomic(file: string, text: string): Promise<number> {
  const buf = Buffer.from(text, 'utf8');
  const tmp = `${file}.tmp`;
  try {
    await writeFile(tmp, buf);
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
  return buf.length;
}

/** Writes the evaluation page (`renderEvaluation`) to `file`. */
export async function writeEvaluationReport(
  ev: StoreEvaluation,
  file: string,
  o: { store: string; title?: string; now?: number },
): Promise<{ file: string; bytes: number }> {
  const name = ev.labels.topicName ?? ev.labels.topic;
  const title = o.title ?? (name === null ? 'Crawl evaluation' : `Crawl evaluation: ${name}`);
  const bytes = await writeAtomic(
    file,
    renderEvaluation(ev, { title, store: o.store, now: o.now ?? Date.now() }),
  );
  return { file, bytes };
}
