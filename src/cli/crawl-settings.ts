// The settings of `crawl`: the command line over `FOCUSCRAWL_*` variables over the
// settings file (`--config`) over what the store recorded at its last run. The crawl
// records them (meta `crawl.settings`) once its run has started, so that
// `crawl --store DIR` alone resumes with them.
import { META_SETTINGS, META_TOPIC, type StoredTopic } from '../crawl/types.js';
import { CliUsageError } from '../errors/index.js';
import { loadTopicFile, type Topic } from '../relevance/topic.js';
import type { Store } from '../store/index.js';
import { connectStore, storeExists } from '../store/open.js';
import type { FlagSpec, Parsed } from './args.js';
import { CRAWL_FLAGS, THRESHOLD_PARAMS } from './crawl-flag-table.js';
import { fetchFlags } from './fetch-flags.js';
import { brokenRule, idleConstant, thresholdProblem } from './flag-checks.js';
import { flagSpecOf } from './flags.js';
import {
  absolutePaths,
  commandLineLayer,
  configLayer,
  envLayer,
  type FlagValue,
  flagText,
  type Layer,
  mergeLayers,
} from './settings.js';

/** What the store records (meta `crawl.settings`). */
export interface StoredSettings {
  version: 1;
  /** The crawl and fetcher flags in force, paths absolute; switches off left out. */
  flags: Record<string, FlagValue>;
  /** The topic, as read from its file. */
  topic: Topic;
  /** The topic file it was read from (absolute); null when it came from the store. */
  topicFile: string | null;
}

/** Flags that act once, on the run they are given to: never recorded. */
const ONCE = new Set(['retry-errors', 'new-topic']);

/** The flags a store records: the crawl's and the fetcher's option flags. */
const RECORDED: ReadonlySet<string> = new Set(
  [...Object.keys(flagSpecOf(CRAWL_FLAGS)), ...Object.keys(fetchFlags)].filter((f) => !ONCE.has(f)),
);

/** The settings the store at `dir` recorded (an older store: its topic only); null for none. */
export async function storedSettings(dir: string): Promise<StoredSettings | null> {
  if (!(await storeExists(dir))) return null;
  let store: Store;
  try {
    store = await connectStore(dir, { readonly: true });
  } catch {
    // A store needing an upgrade, or not a store: the crawl opens it and says so.
    return null;
  }
  try {
    const s = await store.getMeta<StoredSettings>(META_SETTINGS);
    if (s !== null && s !== undefined && s.version === 1) return s;
    const t = await store.getMeta<StoredTopic>(META_TOPIC);
    if (t === null || t === undefined) return null;
    const topic: Topic = {
      ...(t.name === null ? {} : { name: t.name }),
      keywords: Object.entries(t.keywords).map(([word, weight]) => ({ word, weight })),
    };
    return { version: 1, flags: {}, topic, topicFile: null };
  } finally {
    await store.close();
  }
}

/**
 * Drops the recorded flags that the flags given now make idle or wrong (a recorded
 * `--t0` once `--threshold 0.2` is given, `--width` once `--strategy` changes), each
 * with a note: what the user gives now wins over what the store remembers.
 */
export function dropStaleStored(layer: Layer, notes: string[]): void {
  const fromStore = (f: string) => layer.from[f] === 'the store';
  if (layer.values['threshold'] !== undefined && !fromStore('threshold')) {
    for (const d of THRESHOLD_PARAMS) {
      if (fromStore(d.flag)) drop(layer, d.flag, notes, 'a new --threshold was given');
    }
  }
  for (let round = 0; round < 16; round++) {
    const p: Parsed = { values: layer.values, positionals: [] };
    const problem = thresholdProblem(p) ?? brokenRule(p) ?? idleConstant(p);
    if (problem === undefined) return;
    const flag = [...problem.matchAll(/--([a-z0-9][a-z0-9-]*)/g)]
      .map((m) => m[1] as string)
      .find(fromStore);
    if (flag === undefined) return;
    drop(layer, flag, notes, problem);
  }
}

function drop(layer: Layer, flag: string, notes: string[], why: string): void {
  notes.push(
    `${flagText(flag, layer.values[flag] as FlagValue)} (recorded in the store) left out: ${why}`,
  );
  delete layer.values[flag];
  delete layer.from[flag];
}

export interface CrawlSettings {
  /** The merged flag values, to build the options from. */
  parsed: Parsed;
  /** Where each value came from. */
  layer: Layer;
  /** The topic (read from --topic, or the store's). */
  topic: Topic;
  /** What the run records. */
  record: StoredSettings;
  /** Lines for the user: settings taken from the store, settings changed since the last run. */
  notes: string[];
}

function storeLayer(s: StoredSettings | null): Layer {
  const layer: Layer = { values: {}, from: {} };
  for (const [k, v] of Object.entries(s?.flags ?? {})) {
    layer.values[k] = v;
    layer.from[k] = 'the store';
  }
  return layer;
}

function same(a: FlagValue | undefined, b: FlagValue | undefined): boolean {
  return JSON.stringify(a ?? false) === JSON.stringify(b ?? false);
}

/** `--max-pages 100 → 200 (command line)` for each recorded flag that changed. */
export function settingChanges(
  before: Record<string, FlagValue>,
  after: Record<string, FlagValue>,
  from: Record<string, string>,
): string[] {
  const out: string[] = [];
  for (const k of [...new Set([...Object.keys(before), ...Object.keys(after)])].sort()) {
    const a = before[k];
    const b = after[k];
    if (same(a, b)) continue;
    const was = a === undefined || a === false ? 'unset' : flagText(k, a);
    const now = b === undefined || b === false ? 'unset' : flagText(k, b);
    out.push(`${was} → ${now}${from[k] === undefined ? '' : ` (${from[k]})`}`);
  }
  return out;
}

/**
 * The settings of a `crawl` run from its command line `p` (flags `spec`), the
 * environment and the store's record.
 */
export async function crawlSettings(
  p: Parsed,
  spec: FlagSpec,
  env: NodeJS.ProcessEnv,
  cwd: string = process.cwd(),
): Promise<CrawlSettings> {
  const cmd = commandLineLayer(p);
  for (const [k, v] of Object.entries(cmd.values)) cmd.values[k] = absolutePaths(k, v, cwd);
  const fromEnv = envLayer(env, spec, 'crawl');
  for (const [k, v] of Object.entries(fromEnv.values)) {
    fromEnv.values[k] = absolutePaths(k, v, cwd);
  }
  const configFile =
    typeof cmd.values['config'] === 'string' ? cmd.values['config'] : env['FOCUSCRAWL_CONFIG'];
  const fromConfig =
    configFile === undefined || configFile === ''
      ? { values: {}, from: {} }
      : configLayer(configFile, spec, 'crawl');
  const given = mergeLayers(cmd, fromEnv, fromConfig);
  const dir = given.values['store'];
  if (typeof dir !== 'string') {
    throw new CliUsageError(
      'focuscrawl crawl: --store is required (see focuscrawl crawl --help; it may also come from FOCUSCRAWL_STORE or the --config file)',
    );
  }
  const stored = await storedSettings(dir);
  const notes: string[] = [];
  const layer = mergeLayers(given, storeLayer(stored));
  dropStaleStored(layer, notes);
  const topicPath = given.values['topic'];
  let topic: Topic;
  let topicFile: string | null = null;
  if (typeof topicPath === 'string') {
    topic = loadTopicFile(topicPath);
    topicFile = topicPath;
  } else if (stored !== null) {
    topic = stored.topic;
    topicFile = stored.topicFile;
  } else {
    throw new CliUsageError(
      `focuscrawl crawl: --topic is required${(await storeExists(dir)) ? ` (the store ${dir} has no recorded topic)` : ' to start a crawl'} (see focuscrawl crawl --help)`,
    );
  }
  const flags: Record<string, FlagValue> = {};
  for (const [k, v] of Object.entries(layer.values)) {
    if (RECORDED.has(k) && v !== false) flags[k] = v;
  }
  if (stored !== null) {
    const taken = Object.keys(stored.flags).filter((k) => layer.from[k] === 'the store');
    if (taken.length > 0) {
      notes.push(
        `settings from the store: ${taken.map((k) => flagText(k, stored.flags[k] as FlagValue)).join(' ')}`,
      );
    }
    const changed = settingChanges(stored.flags, flags, layer.from);
    if (changed.length > 0)
      notes.push(`settings changed since the last run: ${changed.join('; ')}`);
  }
  const values: Parsed['values'] = { ...layer.values };
  return {
    parsed: { values, positionals: p.positionals },
    layer,
    topic,
    record: { version: 1, flags, topic, topicFile },
    notes,
  };
}
