/**
 * Bodies of a PostgreSQL store in a directory every worker mounts (`?bodies=file:///…`),
 * laid out as a store directory lays out its page files: `pages/<md5>.gz`. Each is
 * written to `tmp/` under a name no other process uses and renamed into place, so
 * that a reader on any machine sees a body whole or not at all.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { StoreError } from '../errors/index.js';
import { type BodyPlace, checkBodyName } from './pg-bodies.js';

/** The file naming the store whose bodies a place holds (pg-body-open.ts). */
export const MARKER = 'focuscrawl-bodies.json';

/** A body place outside the database, with the marker that ties it to its store. */
export interface OutsidePlace extends BodyPlace {
  /** The marker's text; null when there is none. */
  readMarker(): Promise<string | null>;
  writeMarker(text: string): Promise<void>;
}

const missing = (e: unknown) => (e as NodeJS.ErrnoException).code === 'ENOENT';

export class FileBodies implements OutsidePlace {
  readonly shown: string;
  readonly inTransaction = false;
  readonly #dir: string;

  private constructor(dir: string) {
    this.#dir = dir;
    this.shown = pathToFileURL(dir).href;
  }

  /** The place at `dir` (absolute); creates `pages/` and `tmp/` in it when `writable`. */
  static async open(dir: string, writable: boolean): Promise<FileBodies> {
    const place = new FileBodies(dir);
    if (writable) {
      try {
        await mkdir(join(dir, 'pages'), { recursive: true });
        await mkdir(join(dir, 'tmp'), { recursive: true });
      } catch (cause) {
        throw new StoreError(`cannot use ${place.shown} for bodies: ${(cause as Error).message}`, {
          cause,
        });
      }
    }
    return place;
  }

  async #write(name: string, data: Uint8Array): Promise<void> {
    const path = join(this.#dir, name);
    const tmp = join(this.#dir, 'tmp', `${randomUUID()}.gz`);
    try {
      await writeFile(tmp, data);
      await rename(tmp, path);
    } catch (cause) {
      await rm(tmp, { force: true }).catch(() => {});
      throw new StoreError(
        `cannot write the body ${name} to ${path}: ${(cause as Error).message}`,
        {
          cause,
        },
      );
    }
  }

  async #read(name: string): Promise<Buffer | null> {
    const path = join(this.#dir, name);
    try {
      return await readFile(path);
    } catch (cause) {
      if (missing(cause)) return null;
      throw new StoreError(
        `cannot read the body ${name} from ${path}: ${(cause as Error).message}`,
        {
          cause,
        },
      );
    }
  }

  put(name: string, gz: Uint8Array): Promise<void> {
    checkBodyName('put body', name);
    return this.#write(name, gz);
  }

  get(name: string): Promise<Buffer | null> {
    checkBodyName('get body', name);
    return this.#read(name);
  }

  async readMarker(): Promise<string | null> {
    return (await this.#read(MARKER))?.toString('utf8') ?? null;
  }

  writeMarker(text: string): Promise<void> {
    return this.#write(MARKER, Buffer.from(text));
  }

  async close(): Promise<void> {}
}
