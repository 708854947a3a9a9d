/**
 * The page repository (DESIGN 1.4): one gzip file per page, named by the MD5 of
 * its URL in hex, under `pages/`. A file is written to `tmp/` and renamed into
 * place, so a page file is either whole or absent.
 */
import { createHash } from 'node:crypto';
import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip, gzipSync } from 'node:zlib';
import { StoreError } from '../errors/index.js';
import { md5Hex } from '../url/index.js';
import { BodyWriter } from './body-writer.js';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** The body's name relative to the store directory: `pages/<md5(url)>.gz`. */
export function bodyFileName(url: string): string {
  return `pages/${md5Hex(url)}.gz`;
}

/** zlib level 1: the fastest (test-web pages: 145 µs vs 172 µs at level 4 and 180 µs at 6), files ~7% larger than level 4. */
const GZIP_LEVEL = 1;

export function compressBody(body: Uint8Array): Promise<Buffer> {
  return gzipAsync(body, { level: GZIP_LEVEL });
}

export async function decompressBody(data: Buffer, where: string): Promise<Buffer> {
  try {
    return await gunzipAsync(data);
  } catch (e) {
    throw new StoreError(`${where}: the stored body is not valid gzip`, { cause: e });
  }
}

/** What a failed write's system error means for the user, by its code. */
const WRITE_REASONS: Record<string, string> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EMFILE: 'too many open files',
};
/** Errors after which freeing space lets the same command resume. */
const RESUMABLE = new Set(['ENOSPC', 'EDQUOT']);

/** The error of a body that could not be written, naming the URL, the file and why. */
function writeError(url: string, path: string, cause: unknown): Error {
  const code = (cause as { code?: unknown } | null)?.code;
  const known =
    typeof code === 'string'
      ? code
      : Object.keys(WRITE_REASONS).find((c) => String((cause as Error)?.message).includes(c));
  const reason = known === undefined ? undefined : WRITE_REASONS[known];
  const why =
    known === undefined || reason === undefined
      ? ''
      : `: ${reason} (${known})${RESUMABLE.has(known) ? ': free some space, then run the same command again (the crawl resumes)' : ''}`;
  return new StoreError(`cannot write the body of ${url} to ${path}${why}`, { cause, url });
}

let tmpCounter = 0;

/** Writes a new file at `path`; false (nothing written) when one exists already. */
function createExclusive(path: string, data: Uint8Array): boolean {
  try {
    writeFileSync(path, data, { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/**
 * Where page files are compressed and written: `thread` on a worker thread of
 * their own; `inline` on the calling thread, synchronously (for a store that
 * already runs on a thread of its own, see threaded.ts).
 */
export type BodyWriting = 'thread' | 'inline';

/** Page files of a store directory. */
export class BodyFiles {
  readonly #dir: string;
  readonly #writing: BodyWriting;

  constructor(dir: string, writing: BodyWriting = 'thread') {
    this.#dir = dir;
    this.#writing = writing;
  }

  /** Creates `pages/` and `tmp/`. */
  async init(): Promise<void> {
    await mkdir(join(this.#dir, 'pages'), { recursive: true });
    await mkdir(join(this.#dir, 'tmp'), { recursive: true });
  }

  /**
   * Writes the compressed body of `url`; returns its name (`pages/<md5(url)>.gz`) and
   * the MD5 (hex) of the body.
   * Compression and the file writes run on a worker thread, batched with the other
   * writes of the same tick: far cheaper for the crawl's thread than async fs calls.
   */
  write(url: string, body: Uint8Array): Promise<{ name: string; md5: string }> {
    const name = bodyFileName(url);
    const path = join(this.#dir, name);
    const tmp = join(this.#dir, 'tmp', `${process.pid}-${++tmpCounter}.gz`);
    if (this.#writing === 'inline') {
      try {
        const md5 = createHash('md5').update(body).digest('hex');
        const gz = gzipSync(body, { level: GZIP_LEVEL });
        // A page's first file is created in place (no rename): until the commit that
        // refers to it, no reader looks at it, and a half-written one left by a crash
        // is replaced when the page is fetched again. Replacing a file goes through
        // tmp/ and a rename, so that a stored page is never seen half-written.
        if (!createExclusive(path, gz)) {
          writeFileSync(tmp, gz);
          renameSync(tmp, path);
        }
        return Promise.resolve({ name, md5 });
      } catch (cause) {
        rmSync(tmp, { force: true });
        return Promise.reject(writeError(url, path, cause));
      }
    }
    return this.#writer()
      .write(tmp, path, body)
      .then(
        (md5) => ({ name, md5 }),
        (cause: unknown) => {
          throw writeError(url, path, cause);
        },
      );
  }

  /**
   * Writes the compressed body of a page reached through a redirect to a file of
   * its own in `tmp/`, to be moved into place (`place`) once the transaction that
   * records the page knows it keeps it, or removed (`unstage`). The target may be
   * recorded by another commit in the meantime: staging never overwrites a stored
   * page's file before the page is known to be kept. `name` is the file the body
   * takes when placed: `pages/<md5(url)>.gz`.
   */
  stage(url: string, body: Uint8Array): Promise<{ name: string; md5: string; tmp: string }> {
    const name = bodyFileName(url);
    const staged = join(this.#dir, 'tmp', `${process.pid}-${++tmpCounter}.staged.gz`);
    if (this.#writing === 'inline') {
      try {
        const md5 = createHash('md5').update(body).digest('hex');
        writeFileSync(staged, gzipSync(body, { level: GZIP_LEVEL }));
        return Promise.resolve({ name, md5, tmp: staged });
      } catch (cause) {
        rmSync(staged, { force: true });
        return Promise.reject(writeError(url, staged, cause));
      }
    }
    const tmp = join(this.#dir, 'tmp', `${process.pid}-${++tmpCounter}.gz`);
    return this.#writer()
      .write(tmp, staged, body)
      .then(
        (md5) => ({ name, md5, tmp: staged }),
        (cause: unknown) => {
          throw writeError(url, staged, cause);
        },
      );
  }

  /** Moves a staged body (`stage`) to its place `name`, replacing any file there. */
  place(tmp: string, name: string): void {
    renameSync(tmp, join(this.#dir, name));
  }

  /** Removes a staged body that was not placed (nothing when it was). */
  unstage(tmp: string): void {
    rmSync(tmp, { force: true });
  }

  #bodyWriter: BodyWriter | null = null;
  #writer(): BodyWriter {
    this.#bodyWriter ??= new BodyWriter(GZIP_LEVEL);
    return this.#bodyWriter;
  }

  /** Stops the writer thread (after its pending writes). */
  async close(): Promise<void> {
    await this.#bodyWriter?.close();
    this.#bodyWriter = null;
  }

  async read(url: string, name: string): Promise<Buffer> {
    const path = join(this.#dir, name);
    let data: Buffer;
    try {
      data = await readFile(path);
    } catch (e) {
      throw new StoreError(`cannot read the body of ${url} from ${path}`, { cause: e, url });
    }
    return decompressBody(data, path);
  }

  /** Removes files left in `tmp/` by writers that died; only safe with no other writer. */
  async clearTmp(): Promise<void> {
    const tmp = join(this.#dir, 'tmp');
    for (const f of await readdir(tmp).catch(() => [] as string[])) {
      await rm(join(tmp, f), { force: true });
    }
  }
}
