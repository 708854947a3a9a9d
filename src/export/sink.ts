// Writing an export to a file: into FILE.tmp, renamed to FILE once complete, so a
// failed or interrupted export never leaves a partial file under the final name.

import { once } from 'node:events';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { finished } from 'node:stream/promises';
import { InvalidOptionError } from '../errors/index.js';
import type { Store } from '../store/index.js';
import { type ExportOptionsInput, exportStore } from './export.js';

/** A file being written: `write` waits when the stream's buffer is full. */
export interface FileSink {
  readonly path: string;
  readonly tmpPath: string;
  /** Strings are written as UTF-8, Buffers as they are. */
  write(chunk: string | Buffer): Promise<void>;
  /** Finishes the file (flushed to disk) and renames it to `path`. */
  commit(): Promise<void>;
  /** Closes and removes the temporary file. */
  abort(): Promise<void>;
}

/**
 * Opens `path + '.tmp'` for writing (replacing any leftover). A file that cannot be
 * created (missing directory, no permission) gives `InvalidOptionError` naming it.
 */
export async function openFileSink(path: string): Promise<FileSink> {
  const tmpPath = `${path}.tmp`;
  const ws: WriteStream = createWriteStream(tmpPath, { flags: 'w', flush: true });
  let failure: Error | undefined;
  ws.on('error', (e) => {
    failure ??= e;
  });
  try {
    await once(ws, 'open');
  } catch (e) {
    const msg = e instanceof Error ? e.message : String(e);
    throw new InvalidOptionError(`cannot write ${path}: ${msg}`, { cause: e });
  }
  return {
    path,
    tmpPath,
    async write(chunk) {
      if (failure) throw failure;
      if (!ws.write(chunk)) await once(ws, 'drain');
    },
    async commit() {
      if (failure) throw failure;
      ws.end();
      await finished(ws);
      await rename(tmpPath, path);
    },
    async abort() {
      ws.destroy();
      await finished(ws).catch(() => {});
      await rm(tmpPath, { force: true });
    },
  };
}

/** Writes an export to `path` through `path.tmp`; on any failure no file is left. */
export async function exportToFile(
  store: Store,
  options: ExportOptionsInput,
  path: string,
): Promise<{ rows: number }> {
  const sink = await openFileSink(path);
  try {
    const r = await exportStore(store, options, (chunk) => sink.write(chunk));
    await sink.commit();
    return r;
  } catch (e) {
    await sink.abort();
    throw e;
  }
}
