// Crawlee's RequestQueue on the inputs of bench/store.mjs (see its header): the peer rows of
// addUrls and claim+commit. Run by bench/store.mjs, each phase in its own process.
// `inputs` holds the generators that bench/store.mjs's own phases use.

// Crawlee's RequestQueue (and KeyValueStore) in `dir`, on disk or in memory only.
async function openQueue(persist, dir) {
  process.env.CRAWLEE_STORAGE_DIR = dir;
  const { Configuration, KeyValueStore, RequestQueue, log } = await import('@crawlee/cheerio');
  log.setLevel(log.LEVELS.WARNING);
  const config = new Configuration({
    persistStorage: persist,
    storageClientOptions: { localDataDirectory: dir, persistStorage: persist },
  });
  const queue = await RequestQueue.open(null, { config });
  // Until every file write the storage has started is done.
  const settle = () => config.getStorageClient().teardown();
  return { queue, config, settle, KeyValueStore };
}

export async function peerAddPhase(persist, dir, n, inputs) {
  const { urlOf, indexOf, rate, now } = inputs;
  const { queue, settle } = await openQueue(persist, dir);
  const batch = 1000;
  const pass = async () => {
    const answers = [];
    for (let i = 0; i < n; i += batch) {
      const items = [];
      for (let j = i; j < Math.min(n, i + batch); j++) items.push({ url: urlOf(j), crawlDepth: 1 });
      answers.push((await queue.addRequests(items)).processedRequests);
    }
    await settle();
    return answers.flat();
  };
  const t0 = now();
  const first = await pass();
  const ms = now() - t0;
  // The same URLs again: all known.
  const t1 = now();
  const second = await pass();
  const ms2 = now() - t1;
  const fresh = (list) => list.filter((p) => !p.wasAlreadyPresent).length;
  const sameKey = first.filter((p) => p.uniqueKey === urlOf(indexOf(p.uniqueKey))).length;
  return {
    'addUrls new (URLs/s)': rate(n, ms),
    'addUrls known (URLs/s)': rate(n, ms2),
    check: { added: fresh(first), again: fresh(second), sameKey, urls: first.length },
  };
}

export async function peerCyclePhase(persist, dir, n, withBody, inputs) {
  const { urlOf, indexOf, outlinks, fateOf, pageBody, rate, now, cpuMs } = inputs;
  const { queue, config, settle, KeyValueStore } = await openQueue(persist, dir);
  const bodies = withBody ? await KeyValueStore.open(null, { config }) : null;
  await queue.addRequests(
    Array.from({ length: 200 }, (_, i) => ({ url: urlOf(i), crawlDepth: 0 })),
  );
  const body = pageBody();
  const s = { next: 1_000_000 };
  const claimedUrls = [];
  let done = 0;
  let idle = 0;
  const cpu0 = process.cpuUsage();
  const t0 = now();
  while (done < n) {
    // The same outlinks, in the same order, as focuscrawl's batch of 100.
    const pages = Array.from({ length: 100 }, (_, k) =>
      fateOf(k) === 'error' ? null : outlinks(s),
    );
    await Promise.all(
      pages.map(async (targets) => {
        let r = await queue.fetchNextRequest();
        // null while another call refills the queue head.
        while (r === null) {
          if (++idle > 1e7) throw new Error('the Crawlee queue gives no request');
          r = await queue.fetchNextRequest();
        }
        claimedUrls.push(r.url);
        if (targets === null) {
          r.pushErrorMessage('FC_ERR_NETWORK');
        } else {
          const depth = r.crawlDepth + 1;
          await queue.addRequests(targets.map((url) => ({ url, crawlDepth: depth })));
          if (bodies) await bodies.setValue(r.id, body, { contentType: 'text/html' });
        }
        await queue.markRequestHandled(r);
      }),
    );
    done += pages.length;
  }
  await settle();
  const ms = now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const info = await queue.getInfo();
  const what = `claim+commit${withBody ? ' with a 6.7 KB body' : ''}`;
  return {
    [`${what} (pages/s)`]: rate(done, ms),
    [`${what} (CPU ms/page)`]: cpuMs(cpu) / done,
    check: { pages: done, known: info.totalRequestCount, claimed: claimedUrls.map(indexOf) },
  };
}
