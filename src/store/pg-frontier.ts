/**
 * The PostgreSQL store's waiting URLs (contracts.ts, `Frontier`): adding URLs and
 * seeds, walking and rescoring the frontier, trimming it, and the counts of URLs per
 * state (the slots of `counters` added up).
 */
import type { Frontier } from './contracts.js';
import { insertUrls } from './pg-add.js';
import type { PgDb } from './pg-db.js';
import { STATE_NAME } from './schema.js';
import type { StateCounts, WaitingUrl } from './types.js';
import { SEED_PRIORITY } from './types.js';
import * as v from './validate.js';

export function frontierMethods(db: PgDb): Pick<Frontier, keyof Frontier> {
  return {
    async addUrls(items) {
      v.checkNewUrls('addUrls', items);
      return db.tx('addUrls', (q, t) => insertUrls(q, t, 'addUrls', items, null));
    },

    async addSeeds(urls, options) {
      v.checkUrlList('addSeeds', urls);
      v.checkPriorityOption('addSeeds options', options);
      const priority = options?.priority ?? SEED_PRIORITY;
      const now = Date.now();
      return db.tx('addSeeds', async (q, t) => {
        // seq, drawn in the order given, keeps the seeds' order.
        await q(
          `INSERT INTO seeds (url, added_at)
           SELECT url, $2 FROM unnest($1::text[]) WITH ORDINALITY AS s(url, ord) ORDER BY ord
           ON CONFLICT (url) DO NOTHING`,
          [urls, now],
        );
        const items = urls.map((url) => ({ url, depth: 0, priority, discoveredAt: now }));
        return insertUrls(q, t, 'addSeeds', items, null);
      });
    },

    async getSeeds() {
      const rows = await db.query<{ url: string }>(
        'getSeeds',
        'SELECT url FROM seeds ORDER BY seq',
      );
      return rows.map((r) => r.url);
    },

    async scanWaiting(options) {
      const { afterId, limit } = v.checkScanOptions('scanWaiting options', options);
      // Walks urls_state (state, id) from afterId on.
      return db.query<WaitingUrl & Record<string, unknown>>(
        'scanWaiting',
        `SELECT id, url, depth, priority, value, anchor, context FROM urls
         WHERE state = 0 AND id > $1 ORDER BY id LIMIT $2`,
        [afterId, limit],
      );
    },

    async reprioritize(items) {
      const changes = [...v.checkPriorityChanges('reprioritize', items).values()];
      if (changes.length === 0) return 0;
      changes.sort((a, b) => a.id - b.id);
      return db.tx('reprioritize', async (q) => {
        // Rows locked in id order, as addUrls' raises lock them.
        const rows = await q(
          `WITH d AS (
             SELECT * FROM unnest($1::bigint[], $2::float8[], $3::float8[]) AS d(id, p, v)
           ), l AS (
             SELECT u.id FROM urls u JOIN d ON d.id = u.id WHERE u.state = 0
             ORDER BY u.id FOR UPDATE OF u
           )
           UPDATE urls u SET priority = d.p, value = coalesce(d.v, u.value)
           FROM d, l WHERE u.id = d.id AND u.id = l.id AND u.state = 0
           RETURNING u.id`,
          [
            changes.map((c) => c.id),
            changes.map((c) => c.priority),
            changes.map((c) => c.value ?? null),
          ],
        );
        return rows.length;
      });
    },

    async trimWaiting(max) {
      v.checkInt('trimWaiting(max)', max, 0);
      return db.tx('trimWaiting', async (q, t) => {
        const [c] = await q<{ n: number | null }>(
          "SELECT sum(n)::bigint AS n FROM counters WHERE name = 'waiting'",
        );
        const excess = (c?.n ?? 0) - max;
        if (excess <= 0) return 0;
        // The worst waiting URLs, URLs waiting for a retry time apart (they are kept);
        // a URL being claimed right now is not in the frontier any more: skipped.
        const rows = await q(
          `DELETE FROM urls WHERE id IN (
             SELECT id FROM urls WHERE state = 0 AND retry_at IS NULL
             ORDER BY priority ASC, id DESC LIMIT $1 FOR UPDATE SKIP LOCKED)
           RETURNING id`,
          [excess],
        );
        // Host figures are left as they are: discovered counts trimmed URLs too.
        t.move('waiting', null, rows.length);
        t.dropped += rows.length;
        return rows.length;
      });
    },

    async counts() {
      const rows = await db.query<{ name: string; n: number }>(
        'counts',
        'SELECT name, sum(n)::bigint AS n FROM counters WHERE name = ANY($1::text[]) GROUP BY name',
        [STATE_NAME],
      );
      const out = {} as StateCounts;
      for (const s of STATE_NAME) out[s] = 0;
      for (const r of rows) out[r.name as keyof StateCounts] = Number(r.n);
      return out;
    },
  };
}
