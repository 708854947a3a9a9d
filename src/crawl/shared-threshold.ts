/**
 * The keep/discard threshold of a crawl that several processes share (coordination.ts):
 * the coordinator's policy observes every page (its own as they are judged, the others'
 * from the feed) and moves; the others send the relevance of the pages they judge and
 * take the coordinator's threshold, its state included, from the store whenever it
 * moved. For a store only this process crawls, it is the policy itself.
 */
import {
  META_THRESHOLD,
  type ThresholdChange,
  type ThresholdHistory,
  type ThresholdKind,
} from '../relevance/index.js';
import { createThreshold, type ThresholdPolicy } from '../relevance/threshold.js';
import type { ThresholdSpec } from '../relevance/threshold-spec.js';
import type { Store } from '../store/index.js';
import type { Coordination, SharedJob } from './coordination.js';
import type { FeedBatch } from './feed.js';

export class SharedThreshold implements ThresholdPolicy, SharedJob {
  readonly name = 'threshold';
  readonly #spec: ThresholdSpec;
  readonly #c: Coordination;
  readonly #store: Store;
  #policy: ThresholdPolicy;
  /** Relevance observed while not the coordinator, not sent yet. */
  #pending: number[] = [];

  constructor(
    spec: ThresholdSpec,
    saved: ThresholdHistory | undefined,
    c: Coordination,
    store: Store,
  ) {
    this.#spec = spec;
    this.#c = c;
    this.#store = store;
    this.#policy = createThreshold(spec, saved, c.self);
    c.join(this);
  }

  get kind(): ThresholdKind {
    return this.#policy.kind;
  }

  get value(): number {
    return this.#policy.value;
  }

  get frozen(): boolean {
    return this.#policy.frozen;
  }

  observe(relevance: number): void {
    if (this.#c.isCoordinator()) this.#policy.observe(relevance);
    else if (this.#policy.kind !== 'fixed' && !this.#policy.frozen) this.#pending.push(relevance);
  }

  /** Moves the threshold when due: the coordinator's job alone. */
  step(now: number, fetchedTotal: number): ThresholdChange | null {
    return this.#c.isCoordinator() ? this.#policy.step(now, fetchedTotal) : null;
  }

  /** Sets the threshold by hand (control.ts), in every process: each applies the control itself. */
  set(value: number, rule: string, now: number, fetchedTotal: number): ThresholdChange | null {
    return this.#policy.set(value, rule, now, fetchedTotal);
  }

  history(): ThresholdHistory {
    return this.#policy.history();
  }

  take(batch: FeedBatch): void {
    if (this.#pending.length === 0) return;
    batch.relevance = this.#pending;
    this.#pending = [];
  }

  absorb(batch: FeedBatch): void {
    for (const r of batch.relevance ?? []) this.#policy.observe(r);
  }

  /** The coordinator's threshold, with its state (a threshold of another kind is left). */
  async adopt(): Promise<void> {
    const saved = await this.#store.getMeta<ThresholdHistory>(META_THRESHOLD);
    if (saved?.kind === this.#spec.kind)
      this.#policy = createThreshold(this.#spec, saved, this.#c.self);
  }
}
