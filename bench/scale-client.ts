// One client of the store-alone part of bench/scale.ts, in a process of its own as a
// worker is: it opens the store at the location given (a postgres:// URL or a SQLite
// directory), opens a lease, and runs the phases its parent asks for over IPC, all
// clients over the same window of wall time:
//   claim   claims of `batch` URLs, host-aware as a whole crawl claims, kept in memory;
//   commit  commits of the URLs held, `batch` outcomes at a time;
//   mixed   claim then commit, again and again, as a crawl's store sees it.
// Each phase answers with its operations, items, latencies (ms) and CPU (ms).
//
//   node --import tsx bench/scale-client.ts LOCATION INDEX CLIENTS BATCH RESEND
import { hostname } from 'node:os';
import { type ClaimedUrl, connectStore, type Store } from '../src/store/index.js';
import { outcomes } from './scale-pages.js';

export type Phase = 'claim' | 'commit' | 'mixed';

export interface RunMessage {
  type: 'run';
  phase: Phase;
  /** Start and end of the window, ms since the epoch. */
  startAt: number;
  endAt: number;
}

export interface PhaseResult {
  type: 'done';
  phase: Phase;
  claims: number;
  claimed: number;
  commits: number;
  committed: number;
  claimMs: number[];
  commitMs: number[];
  cpuMs: number;
  /** When the last operation ended, ms since the epoch. */
  endedAt: number;
}

/** The claim a whole crawl makes (crawl/claimer.ts): one URL per host, 4,096 scanned. */
const HOSTS = { perHost: 1, skip: [] as string[], scan: 4096 };

async function main(): Promise<void> {
  const [location, indexText, clientsText, batchText, resendText] = process.argv.slice(2);
  if (location === undefined || process.send === undefined) {
    throw new Error('run by bench/scale.ts: scale-client.ts LOCATION INDEX CLIENTS BATCH RESEND');
  }
  const index = Number(indexText);
  const clients = Number(clientsText);
  const batch = Number(batchText);
  const resend = Number(resendText);
  const store: Store = await connectStore(location);
  await store.recover();
  const lease = await store.openLease(
    { host: hostname(), pid: process.pid, startedAt: Date.now() },
    Date.now() + 3_600_000,
  );
  const held: ClaimedUrl[] = [];
  let pageNo = 0;
  // Page numbers interleaved over the clients, so that together they are dense.
  const next = () => pageNo++ * clients + index;
  const claim = () => store.claim(batch, { lease: lease.id, hosts: HOSTS });
  const commit = (urls: readonly ClaimedUrl[]) =>
    store.commit(outcomes(urls, next, resend), { lease: lease.id });

  async function run(m: RunMessage): Promise<PhaseResult> {
    const r: PhaseResult = {
      type: 'done',
      phase: m.phase,
      claims: 0,
      claimed: 0,
      commits: 0,
      committed: 0,
      claimMs: [],
      commitMs: [],
      cpuMs: 0,
      endedAt: 0,
    };
    await new Promise((res) => setTimeout(res, Math.max(0, m.startAt - Date.now())));
    const cpu0 = process.cpuUsage();
    const timed = async <T>(into: number[], f: () => Promise<T>): Promise<T> => {
      const t0 = performance.now();
      const out = await f();
      into.push(performance.now() - t0);
      return out;
    };
    while (Date.now() < m.endAt) {
      if (m.phase !== 'commit') {
        const got = await timed(r.claimMs, claim);
        r.claims++;
        r.claimed += got.length;
        if (got.length === 0) break;
        held.push(...got);
      }
      if (m.phase !== 'claim') {
        const urls = held.splice(0, batch);
        if (urls.length === 0) break;
        await timed(r.commitMs, () => commit(urls));
        r.commits++;
        r.committed += urls.length;
      }
    }
    r.endedAt = Date.now();
    const cpu = process.cpuUsage(cpu0);
    r.cpuMs = (cpu.user + cpu.system) / 1000;
    return r;
  }

  process.on('message', (m: RunMessage | { type: 'close' }) => {
    if (m.type === 'run') {
      run(m).then(
        (r) => process.send?.(r),
        (e: unknown) => {
          console.error(e);
          process.exit(1);
        },
      );
    } else {
      // Claims still held go back with the lease.
      store
        .closeLease(lease.id)
        .then(() => store.close())
        .then(() => process.exit(0));
    }
  });
  process.send({ type: 'ready' });
}

await main();
