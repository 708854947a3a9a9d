// The designs the PostgreSQL store's full-text search set aside (src/store/pg-search.ts
// says why), measured on the pages bench/search-pg.ts filled: PostgreSQL's own parser
// with the `english` configuration, and pg_trgm, each built from page_text into a
// schema `alt` of its own. For each: the time to build its table and GIN index, their
// size, the pages each query of the mix matches against the store's own (missing /
// extra), and the latency of matching alone (count of the matches), the store's own
// tsvectors measured alike. Then a few probes (a page's text, a query) that the test
// web's vocabulary does not hold, matched by FTS5, by the store's own tokens, by
// `english` and by ILIKE (what pg_trgm's index serves).
import Database from 'better-sqlite3';
import type Pg from 'pg';
import { ftsMatch, queryTerms, segmentForIndex } from '../src/search/index.js';
import { lexemes, quoteLexeme } from '../src/store/pg-search-tokens.js';

const REPEATS = 5;

/** FTS5's tokeniser as the SQLite store declares it. */
const FTS5_TOKENIZER = `porter unicode61 remove_diacritics 2 categories 'L* N* Co M*'`;

/** Pages and queries where the designs may part. */
const PROBES: [page: string, query: string][] = [
  ['Café de Flore', 'cafe'],
  ['pi is 3.14 or so', '14'],
  ['write to ab@example.com today', 'example'],
  ['he spoke fairly', 'fair'],
  ['dying stars', 'die'],
  ['the who played', 'the who'],
  ['telescopes and galaxies', 'galaxy'],
  ['she presented it', 'sent'],
  ['国家电网公司', '电网'],
  ['电力网络', '电网'],
];

/** Each term of a query as the tsquery the PostgreSQL store matches it with. */
export function tsqueries(query: string): string[] {
  return queryTerms(query)
    .map((t) => lexemes(segmentForIndex(t)).map(quoteLexeme).join(' <-> '))
    .filter((t) => t !== '');
}

/** The ids of the store's pages matching every term ($1 … $n: tsqueries). */
export function pgMatchSql(n: number): string {
  return Array.from(
    { length: n },
    (_, i) => `SELECT url_id FROM page_terms WHERE tsv @@ $${i + 1}::tsquery`,
  ).join(' INTERSECT ');
}

interface Design {
  name: string;
  /** Statements building it from page_text (timed together). */
  build: string[];
  /** Its relations, for the size. */
  table: string;
  /** The ids of the pages matching every term of a query, and the parameters. */
  match(query: string): { sql: string; params: string[] };
}

const like = (term: string) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const DESIGNS: Design[] = [
  {
    name: "english (PostgreSQL's parser, Snowball stemmer, stop words)",
    build: [
      `CREATE TABLE alt.english AS SELECT url_id,
         setweight(to_tsvector('english', title), 'A') || to_tsvector('english', text) AS tsv
       FROM page_text`,
      'CREATE INDEX ON alt.english USING gin (tsv)',
    ],
    table: 'alt.english',
    match(query) {
      // Each term as typed, segmented as the index is (a Chinese run is a phrase).
      const terms = queryTerms(query).map((t) => segmentForIndex(t));
      return {
        sql: `SELECT url_id FROM alt.english WHERE tsv @@ (${terms.map((_, i) => `phraseto_tsquery('english', $${i + 1})`).join(' && ')})`,
        params: terms,
      };
    },
  },
  {
    name: 'pg_trgm (substrings, case folded, no stemming)',
    build: [
      'CREATE EXTENSION IF NOT EXISTS pg_trgm SCHEMA public',
      // The text as shown: without the separators put around unspaced characters.
      `CREATE TABLE alt.trgm AS SELECT url_id,
         replace(title || ' ' || text, E'\\x1f', '') AS body FROM page_text`,
      'CREATE INDEX ON alt.trgm USING gin (body public.gin_trgm_ops)',
    ],
    table: 'alt.trgm',
    match(query) {
      const terms = queryTerms(query).map(like);
      return {
        sql: `SELECT url_id FROM alt.trgm WHERE ${terms.map((_, i) => `body ILIKE $${i + 1}`).join(' AND ')}`,
        params: terms,
      };
    },
  },
];

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 1)} ms`;
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const median = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)] ?? 0;

async function timeCount(c: Pg.Client, sql: string, params: string[]): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < REPEATS; r++) {
    const t0 = performance.now();
    await c.query(`SELECT count(*) FROM (${sql}) m`, params);
    times.push(performance.now() - t0);
  }
  return median(times);
}

/** Whether each design matches each probe, against FTS5's answer. */
async function probes(c: Pg.Client): Promise<void> {
  const lite = new Database(':memory:');
  lite.exec(`CREATE VIRTUAL TABLE t USING fts5(text, tokenize = "${FTS5_TOKENIZER}")`);
  const rows: string[] = [];
  const differ = { own: 0, english: 0, ilike: 0 };
  try {
    for (const [page, query] of PROBES) {
      lite.exec('DELETE FROM t');
      lite.prepare('INSERT INTO t (text) VALUES (?)').run(segmentForIndex(page));
      const fts = lite
        .prepare('SELECT count(*) AS n FROM t WHERE t MATCH ?')
        .get(ftsMatch(queryTerms(query))) as { n: number };
      const tsv = lexemes(segmentForIndex(page))
        .map((l, i) => `${quoteLexeme(l)}:${i + 1}`)
        .join(' ');
      const tq = tsqueries(query);
      const terms = queryTerms(query);
      const [r] = (
        await c.query<{ own: boolean; english: boolean; ilike: boolean }>(
          `SELECT $1::tsvector @@ (${tq.map((_, i) => `$${i + 4}::tsquery`).join(' && ')}) AS own,
             to_tsvector('english', $2) @@ (${terms.map((_, i) => `phraseto_tsquery('english', $${i + 4 + tq.length})`).join(' && ')}) AS english,
             $3 ILIKE ALL ($${4 + tq.length + terms.length}::text[]) AS ilike`,
          [
            tsv,
            segmentForIndex(page),
            page,
            ...tq,
            ...terms.map((t) => segmentForIndex(t)),
            terms.map(like),
          ],
        )
      ).rows;
      const want = fts.n > 0;
      const mark = (b: boolean | undefined) => (b === want ? (b ? 'yes' : 'no') : b ? 'YES' : 'NO');
      if (r?.own !== want) differ.own++;
      if (r?.english !== want) differ.english++;
      if (r?.ilike !== want) differ.ilike++;
      rows.push(
        `    ${JSON.stringify(page).padEnd(34)} ${JSON.stringify(query).padEnd(10)} FTS5 ${want ? 'yes' : 'no '}  own ${mark(r?.own).padEnd(3)}  english ${mark(r?.english).padEnd(3)}  ILIKE ${mark(r?.ilike)}`,
      );
    }
  } finally {
    lite.close();
  }
  const [g] = (
    await c.query<{ zh: number; en: number }>(
      "SELECT cardinality(public.show_trgm('国家电网')) AS zh, cardinality(public.show_trgm('power grid')) AS en",
    )
  ).rows;
  console.log(`  pg_trgm's trigrams (C locale): 国家电网 ${g?.zh}, power grid ${g?.en}`);
  console.log('  probes: does the page match the query? (capitals: unlike FTS5)');
  for (const r of rows) console.log(r);
  console.log(
    `    unlike FTS5: own tokens ${differ.own}, english ${differ.english}, ILIKE ${differ.ilike} of ${PROBES.length}`,
  );
}

/** Builds each design beside the store `schema` and prints how it compares. */
export async function alternatives(
  c: Pg.Client,
  schema: string,
  queries: Record<string, string[]>,
): Promise<void> {
  await c.query(`SET search_path TO "${schema}", public`);
  await c.query('CREATE SCHEMA alt');
  const one = async (sql: string, params: unknown[] = []) =>
    Number((await c.query<{ n: string }>(sql, params)).rows[0]?.n);
  const pages = await one('SELECT count(*) AS n FROM page_text');
  const long = await one('SELECT count(*) AS n FROM page_text WHERE doc_len > 16383');
  console.log(
    `alternatives, on the same ${pages.toLocaleString('en-US')} pages (${long} of them longer than a tsvector's 16,383 positions)`,
  );
  const ours = await one(
    "SELECT pg_total_relation_size('page_terms') - pg_relation_size('page_terms_pkey') AS n",
  );
  const own = new Map<string, number>();
  for (const q of Object.values(queries).flat()) {
    const tq = tsqueries(q);
    own.set(q, await timeCount(c, pgMatchSql(tq.length), tq));
  }
  console.log(
    `  the store's tsvectors: ${mib(ours)} with their GIN index; matching alone, median of the mix ${ms(median([...own.values()]))}`,
  );
  for (const d of DESIGNS) {
    const t0 = performance.now();
    for (const s of d.build) await c.query(s);
    const buildMs = performance.now() - t0;
    await c.query(`VACUUM (ANALYZE) ${d.table}`);
    const size = await one('SELECT pg_total_relation_size($1::regclass) AS n', [d.table]);
    const index = await one('SELECT pg_indexes_size($1::regclass) AS n', [d.table]);
    console.log(
      `  ${d.name}: built in ${(buildMs / 1000).toFixed(1)} s (${ms(buildMs / pages)} a page), table ${mib(size - index)} + GIN ${mib(index)}`,
    );
    let differ = 0;
    for (const [cls, list] of Object.entries(queries)) {
      const cells: string[] = [];
      for (const q of list) {
        const tq = tsqueries(q);
        const m = d.match(q);
        const n = m.params.length;
        // Ours on $1 … $k, theirs on $k+1 …: both sides' parameters in one statement.
        const theirs = m.sql.replace(/\$(\d+)/g, (_, i) => `$${Number(i) + tq.length}`);
        const [row] = (
          await c.query<{ missing: string; extra: string }>(
            `WITH o AS (${pgMatchSql(tq.length)}), t AS (${theirs})
             SELECT (SELECT count(*) FROM (SELECT * FROM o EXCEPT SELECT * FROM t) x) AS missing,
                    (SELECT count(*) FROM (SELECT * FROM t EXCEPT SELECT * FROM o) x) AS extra`,
            [...tq, ...m.params],
          )
        ).rows;
        const missing = Number(row?.missing);
        const extra = Number(row?.extra);
        if (missing + extra > 0) differ++;
        const t = await timeCount(c, m.sql, m.params.slice(0, n));
        cells.push(
          `${q} ${missing + extra === 0 ? 'same' : `−${missing} +${extra}`} ${ms(t)} (own ${ms(own.get(q) ?? 0)})`,
        );
      }
      console.log(`    ${cls}: ${cells.join('; ')}`);
    }
    console.log(`    queries whose matches differ from the store's: ${differ}`);
  }
  await c.query('DROP SCHEMA alt CASCADE');
  await probes(c);
}
