/**
 * The control routes (docs/api.md, "Control"): pause, resume and stop the runs on the
 * store, set the threshold or the topic's keyword weights, add seeds. They write the
 * store's control value (crawl/control.ts), which every run polls, or add the seeds
 * straight to the frontier. Each needs the token (auth.ts, checked before the route).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { type Control, updateControl } from '../crawl/control.js';
import { InvalidOptionError, isFocusCrawlError } from '../errors/index.js';
import { createTopic } from '../relevance/index.js';
import type { Store } from '../store/index.js';
import { canonicalizeUrlOrThrow } from '../url/index.js';
import { parseBody } from './params.js';
import { controlFields } from './status.js';

/** Keywords one weights change may give. */
export const MAX_WEIGHTS = 10_000;
/** Seeds one request may add. */
export const MAX_SEEDS = 10_000;

const thresholdBody = z.strictObject({
  value: z
    .number({ error: 'expected a number from 0 to 1' })
    .min(0, { error: 'expected a number from 0 to 1' })
    .max(1, { error: 'expected a number from 0 to 1' }),
});

const weightsBody = z.strictObject({
  weights: z
    .record(
      z.string(),
      z
        .number({ error: 'expected a positive number' })
        .positive({ error: 'expected a positive number' })
        .max(1e6, { error: 'expected a number up to 1000000' }),
      { error: 'expected an object mapping each keyword to its weight' },
    )
    .refine((w) => Object.keys(w).length > 0, { error: 'expected at least one keyword' })
    .refine((w) => Object.keys(w).length <= MAX_WEIGHTS, {
      error: `expected at most ${MAX_WEIGHTS} keywords`,
    }),
});

const seedsBody = z.strictObject({
  urls: z
    .array(z.string({ error: 'expected a URL' }), { error: 'expected an array of URLs' })
    .min(1, { error: 'expected at least one URL' })
    .max(MAX_SEEDS, { error: `expected at most ${MAX_SEEDS} URLs` }),
});

/** What the control routes answer: the control value as written. */
export function controlView(c: Control) {
  return { control: controlFields(c) };
}

/** The weights as a topic's keywords (normalised as a topic file's, duplicates refused). */
function keywordsOf(weights: Record<string, number>): Record<string, number> {
  try {
    const topic = createTopic({ keywords: weights }, 'weights');
    return Object.fromEntries(topic.keywords.map((k) => [k.word, k.weight]));
  } catch (e) {
    if (isFocusCrawlError(e) && e.code === 'FC_ERR_TOPIC_FILE') {
      throw new InvalidOptionError(e.message.replace(/^weights: keywords/, 'weights'), {
        cause: e,
      });
    }
    throw e;
  }
}

export function controlRoutes(app: FastifyInstance, store: Store): void {
  const set = async (change: (c: Control) => void) =>
    controlView(await updateControl(store, change));

  app.post('/api/control/pause', async () =>
    set((c) => {
      c.paused = true;
    }),
  );
  app.post('/api/control/resume', async () =>
    set((c) => {
      c.paused = false;
      c.stop = false;
    }),
  );
  app.post('/api/control/stop', async () =>
    set((c) => {
      c.stop = true;
    }),
  );

  app.put('/api/threshold', async (req) => {
    const { value } = parseBody(thresholdBody, req.body);
    return set((c) => {
      c.threshold = { value, seq: c.seq + 1 };
    });
  });

  app.put('/api/topic/weights', async (req) => {
    const { weights } = parseBody(weightsBody, req.body);
    const terms = keywordsOf(weights);
    return set((c) => {
      c.weights = { terms, seq: c.seq + 1 };
    });
  });

  app.post('/api/seeds', async (req) => {
    const { urls } = parseBody(seedsBody, req.body);
    const canonical = urls.map((u, i) => {
      try {
        return canonicalizeUrlOrThrow(u);
      } catch (e) {
        throw new InvalidOptionError(`urls.${i}: ${e instanceof Error ? e.message : String(e)}`, {
          cause: e,
        });
      }
    });
    const unique = [...new Set(canonical)];
    const added = await store.addSeeds(unique);
    return { added, seeds: unique.length };
  });
}
