/**
 * The PostgreSQL store's extracted fields (`ExtractedFields`, table `fields`):
 * written with a complete page by `commit`, replaced by `replaceFields` in one
 * set-based transaction, streamed through a cursor in key order (the names are
 * `COLLATE "C"`: code point order on any database), and counted by `fieldStats`.
 */
import { InvalidOptionError } from '../errors/index.js';
import type { ExtractedFields } from './contracts.js';
import type { FieldRecord, FieldStats, FieldValue } from './field-types.js';
import type { PgDb, Row, Sql } from './pg-db.js';
import { urlKey } from './pg-find.js';
import { checkFieldsOptions, checkPageFields } from './validate-fields.js';

interface FieldRow {
  url: string;
  rule_set: string;
  field: string;
  position: number;
  value: string | null;
}

const COLUMNS = `SELECT u.url, f.rule_set, f.field, f.position, f.value
  FROM fields f JOIN urls u ON u.id = f.url_id`;
const ORDER = 'ORDER BY f.url_id, f.rule_set, f.field, f.position';

async function* records(rows: AsyncIterable<Row>): AsyncGenerator<FieldRecord> {
  for await (const row of rows) {
    const r = row as unknown as FieldRow;
    yield { url: r.url, ruleSet: r.rule_set, field: r.field, position: r.position, value: r.value };
  }
}

/** Replaces the fields of pages (by URL id) with the ones given, in the caller's transaction. */
export async function putFields(
  q: Sql,
  pages: readonly (readonly [number, readonly FieldValue[]])[],
): Promise<void> {
  if (pages.length === 0) return;
  const sorted = [...pages].sort((a, b) => a[0] - b[0]);
  await q('DELETE FROM fields WHERE url_id = ANY($1::bigint[])', [sorted.map(([id]) => id)]);
  const rows = sorted.flatMap(([id, fs]) => fs.map((f) => [id, f] as const));
  if (rows.length === 0) return;
  await q(
    `INSERT INTO fields (url_id, rule_set, field, position, value)
     SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::integer[], $5::text[])`,
    [
      rows.map(([id]) => id),
      rows.map(([, f]) => f.ruleSet),
      rows.map(([, f]) => f.field),
      rows.map(([, f]) => f.position),
      rows.map(([, f]) => f.value),
    ],
  );
}

export function fieldMethods(db: PgDb): Pick<ExtractedFields, keyof ExtractedFields> {
  return {
    async replaceFields(items) {
      checkPageFields('replaceFields', items);
      return db.tx('replaceFields', async (q) => {
        const urls = [...new Set(items.map((it) => it.url))];
        // The stored pages among them, locked in id order: two replacements of one
        // page wait for each other instead of colliding on its rows.
        const stored =
          urls.length === 0
            ? []
            : await q<{ id: number; url: string }>(
                `SELECT p.url_id AS id, u.url FROM urls u JOIN pages p ON p.url_id = u.id
                 WHERE u.url_key = ANY($1::uuid[]) ORDER BY p.url_id FOR UPDATE OF p`,
                [urls.map(urlKey)],
              );
        const byUrl = new Map(stored.map((r) => [r.url, r.id]));
        // Every URL first: nothing is written when one is refused.
        const ids = new Map<number, readonly FieldValue[]>();
        for (let i = 0; i < items.length; i++) {
          const it = items[i] as (typeof items)[number];
          const id = byUrl.get(it.url);
          if (id === undefined) {
            const [known] = await q('SELECT 1 FROM urls WHERE url_key = $1 AND url = $2', [
              urlKey(it.url),
              it.url,
            ]);
            const is = known === undefined ? 'not a known URL' : 'a URL without a stored page';
            throw new InvalidOptionError(`replaceFields[${i}].url: ${it.url} is ${is}`);
          }
          ids.set(id, it.fields);
        }
        if (ids.size === 0) return 0;
        await putFields(q, [...ids]);
        return ids.size;
      });
    },

    fields(options) {
      const url = checkFieldsOptions('fields options', options);
      return records(
        url === undefined
          ? db.stream('fields', `${COLUMNS} ${ORDER}`)
          : db.stream(
              'fields',
              `${COLUMNS} WHERE f.url_id = (SELECT id FROM urls WHERE url_key = $1 AND url = $2) ${ORDER}`,
              [urlKey(url), url],
            ),
      );
    },

    async fieldStats() {
      return db.read('fieldStats', async (q) => {
        const sets = await q<{ rule_set: string; pages: number }>(
          `SELECT rule_set, count(DISTINCT url_id) AS pages FROM fields
           GROUP BY rule_set ORDER BY rule_set`,
        );
        const filled = await q<{ rule_set: string; field: string; filled: number }>(
          `SELECT rule_set, field, count(DISTINCT url_id) FILTER (WHERE value IS NOT NULL) AS filled
           FROM fields GROUP BY rule_set, field ORDER BY rule_set, field`,
        );
        const out: FieldStats[] = sets.map((s) => ({
          ruleSet: s.rule_set,
          pages: s.pages,
          fields: [],
        }));
        const byName = new Map(out.map((s) => [s.ruleSet, s]));
        for (const f of filled)
          byName.get(f.rule_set)?.fields.push({ field: f.field, filled: f.filled });
        return out;
      });
    },
  };
}
