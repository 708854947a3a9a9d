/**
 * The ranking settings a store keeps (meta `ranking.settings`): the link score, its
 * damping and the weights of P that `focuscrawl rank` was last given. They stay in
 * force until changed: a later `rank` without them uses them, and so does the ranking
 * a crawl computes when a run ends, so that a crawl run does not put the defaults back.
 */
import { type RankStoreOptions, rankStoreSettings } from '../ranking/index.js';
import type { Store } from '../store/index.js';

/** The meta key of the kept settings. */
export const META_RANK_SETTINGS = 'ranking.settings';

/** The settings kept: those that decide P (not the iteration's tolerance or sweeps). */
export const KEPT_RANK_SETTINGS = ['algorithm', 'damping', 'w1', 'w2'] as const;

export type RankSettings = Pick<RankStoreOptions, (typeof KEPT_RANK_SETTINGS)[number]>;

/** The kept settings of `options` that are valid (each checked as `rankStore` checks it). */
function keptOf(options: Readonly<Record<string, unknown>>): RankSettings {
  const out: Record<string, unknown> = {};
  for (const key of KEPT_RANK_SETTINGS) {
    const v = options[key];
    if (v === undefined) continue;
    try {
      rankStoreSettings({ [key]: v });
      out[key] = v;
    } catch {
      // A value this version would refuse (an edited store): its default holds.
    }
  }
  return out as RankSettings;
}

/** The settings `store` keeps; `{}` when none has been given. */
export async function storedRankSettings(store: Store): Promise<RankSettings> {
  const raw = await store.getMeta<unknown>(META_RANK_SETTINGS);
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return {};
  return keptOf(raw as Record<string, unknown>);
}

/**
 * Keeps the settings of `given` (validated by the caller) over those `store` keeps,
 * and returns the settings now in force; writes only when one changes.
 */
export async function keepRankSettings(
  store: Store,
  given: Readonly<RankStoreOptions>,
): Promise<RankSettings> {
  const kept = await storedRankSettings(store);
  const merged: RankSettings = { ...kept, ...keptOf(given as Record<string, unknown>) };
  if (JSON.stringify(merged) !== JSON.stringify(kept)) {
    await store.setMeta(META_RANK_SETTINGS, merged);
  }
  return merged;
}

/**
 * The options of the ranking a crawl computes when a run ends: the kept settings,
 * the damping falling back to the crawl's own (`strategyOptions.damping`) when none is
 * kept.
 */
export async function finishRankOptions(
  store: Store,
  crawlDamping: number | undefined,
): Promise<RankStoreOptions> {
  const kept = await storedRankSettings(store);
  const damping = kept.damping ?? crawlDamping;
  return damping === undefined ? kept : { ...kept, damping };
}
