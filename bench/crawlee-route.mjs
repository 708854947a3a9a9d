// Crawlee against the local test servers: the URL keeps its host name (request.url,
// uniqueKey, the per-domain delay, link resolution); the connection goes to
// 127.0.0.1:port and the Host header names the host. Used by bench/crawl.mjs and
// bench/polite.mjs as a CheerioCrawler `preNavigationHooks` entry; `enqueueHosts` is their
// link following.
export function localRoute(port) {
  return ({ request }, gotOptions) => {
    const u = new URL(request.url);
    gotOptions.url = `http://127.0.0.1:${port}${u.pathname}${u.search}`;
    gotOptions.headers = { ...gotOptions.headers, host: u.host };
  };
}

/** Enqueues every link of the page whose host name `keep` accepts (a plain crawl). */
export function enqueueHosts({ request, enqueueLinks }, keep) {
  return enqueueLinks({
    strategy: 'all',
    baseUrl: request.url,
    transformRequestFunction: (r) => (keep(new URL(r.url).hostname) ? r : false),
  });
}
