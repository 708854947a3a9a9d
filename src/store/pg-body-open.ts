/**
 * Where a PostgreSQL store's bodies live: the store URL's `?bodies=` (`db`, the
 * default; `file:///dir`; `s3://bucket/prefix`), recorded in the store when it is
 * first opened for writing (meta `store.bodies`), so that every process agrees:
 * - a process that gives no `?bodies=` uses the recorded place;
 * - one that names another kind of place, or another bucket or prefix, is refused
 *   (its bodies would be invisible to the others). A directory may be mounted at
 *   another path on each machine: its path may differ;
 * - a place outside the database holds a marker (`focuscrawl-bodies.json`) naming
 *   the store: a writer whose directory lacks it (not mounted: the bodies would go to
 *   its local disk) or names another store is refused.
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { InvalidOptionError, StoreError } from '../errors/index.js';
import { type BodyPlace, DATABASE_BODIES } from './pg-bodies.js';
import { FileBodies, MARKER, type OutsidePlace } from './pg-body-file.js';
import { parseS3Location, S3Bodies } from './pg-body-s3.js';
import type { Sql } from './pg-db.js';

/** A place as `?bodies=` names it. */
export type BodiesSpec =
  | { kind: 'db' }
  | { kind: 'file'; dir: string }
  | { kind: 's3'; bucket: string; prefix: string };

/** The meta key of the recorded place. */
export const META_BODIES = 'store.bodies';

interface Recorded {
  /** The place as `?bodies=` would name it: `db`, `file:///…`, `s3://…`. */
  place: string;
  /** The store's id, also in the place's marker. */
  id: string;
}

/** Reads `?bodies=`; `InvalidOptionError` naming what is wrong. */
export function parseBodies(text: string, where: string): BodiesSpec {
  if (text === 'db') return { kind: 'db' };
  if (text.startsWith('file:')) {
    let dir: string;
    try {
      dir = fileURLToPath(text);
    } catch (e) {
      throw new InvalidOptionError(`${where}: ${(e as Error).message}`);
    }
    return { kind: 'file', dir };
  }
  if (text.startsWith('s3:')) return { kind: 's3', ...parseS3Location(text, where) };
  throw new InvalidOptionError(
    `${where}: expected db, file:///directory or s3://bucket/prefix, got ${JSON.stringify(text)}`,
  );
}

/** The text of a place, as `?bodies=` gives it. */
function nameOf(spec: BodiesSpec): string {
  if (spec.kind === 'db') return 'db';
  if (spec.kind === 's3')
    return `s3://${spec.bucket}${spec.prefix === '' ? '' : `/${spec.prefix}`}`;
  return pathToFileURL(spec.dir).href;
}

function sameKind(a: BodiesSpec, b: BodiesSpec): boolean {
  if (a.kind !== b.kind) return false;
  if (a.kind === 's3' && b.kind === 's3') return a.bucket === b.bucket && a.prefix === b.prefix;
  return true; // a directory may be mounted at another path on each machine
}

async function placeOf(spec: BodiesSpec, writable: boolean): Promise<BodyPlace> {
  if (spec.kind === 'db') return DATABASE_BODIES;
  if (spec.kind === 'file') return FileBodies.open(spec.dir, writable);
  return new S3Bodies({ bucket: spec.bucket, prefix: spec.prefix });
}

async function readRecord(q: Sql): Promise<Recorded | undefined> {
  const [row] = await q<{ value: string }>('SELECT value FROM meta WHERE key = $1', [META_BODIES]);
  return row === undefined ? undefined : (JSON.parse(row.value) as Recorded);
}

const markerText = (id: string) => `${JSON.stringify({ store: id })}\n`;

function markerId(text: string): string | undefined {
  try {
    return (JSON.parse(text) as { store?: string }).store;
  } catch {
    return undefined;
  }
}

/**
 * The body place of the store `shown` (its URL, for messages), `given` by the URL or
 * not. A writer records the place when the store has none recorded, or checks the
 * place's marker.
 */
export async function openBodyPlace(
  q: Sql,
  shown: string,
  given: BodiesSpec | undefined,
  writable: boolean,
): Promise<BodyPlace> {
  let rec = await readRecord(q);
  const recorded =
    rec === undefined ? undefined : parseBodies(rec.place, `${shown} ${META_BODIES}`);
  if (recorded !== undefined && given !== undefined && !sameKind(recorded, given)) {
    throw new StoreError(
      `${shown}: the store keeps its bodies in ${rec?.place}, not ${nameOf(given)}: give every process the same ?bodies=, or leave it out to use the store's`,
    );
  }
  const spec = given ?? recorded ?? { kind: 'db' };
  const place = await placeOf(spec, writable);
  if (!writable || (spec.kind === 'db' && rec !== undefined)) return place;
  try {
    if (rec === undefined) {
      if (spec.kind !== 'db') {
        const [old] = await q('SELECT 1 FROM bodies LIMIT 1');
        if (old !== undefined) {
          throw new StoreError(
            `${shown}: the store keeps its bodies in the database already: they cannot move to ${nameOf(spec)}`,
          );
        }
      }
      // The marker first: a store recorded with a place always finds its marker there.
      const id = randomUUID();
      if (spec.kind !== 'db') await (place as OutsidePlace).writeMarker(markerText(id));
      await q('INSERT INTO meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
        META_BODIES,
        JSON.stringify({ place: nameOf(spec), id } satisfies Recorded),
      ]);
      rec = (await readRecord(q)) as Recorded;
      if (rec.id === id) return place;
      // Another process recorded the store's place first: its marker stands.
      if (spec.kind !== 'db') await (place as OutsidePlace).writeMarker(markerText(rec.id));
      await place.close();
      return openBodyPlace(q, shown, given, writable);
    }
    const text = await (place as OutsidePlace).readMarker();
    const id = text === null ? undefined : markerId(text);
    if (id !== rec.id) {
      throw new StoreError(
        text === null
          ? `${shown}: ${place.shown} holds no ${MARKER}: it is not where this store keeps its bodies (${rec.place}); is the shared directory mounted?`
          : `${shown}: ${place.shown} holds the bodies of another store (its ${MARKER} names another): give the place this store was created with (${rec.place})`,
      );
    }
    return place;
  } catch (e) {
    await place.close().catch(() => {});
    throw e;
  }
}
