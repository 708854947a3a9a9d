// A small site for politeness tests, in a process of its own: 150 pages rendered at
// start, each linking to two more (a binary tree) and back to the first, served from
// memory on 127.0.0.1 so that the server is idle between requests and its log's
// arrival times (ms) are the requests' own. GET /__log answers the log as JSON
// (and is not logged). Prints "port N" once listening.
import { createServer } from 'node:http';

const PAGES = 150;
const pages = new Map();
for (let n = 1; n <= PAGES; n++) {
  const links = [2 * n, 2 * n + 1, 1]
    .filter((k) => k <= PAGES)
    .map((k) => `<a href="/p/${k}.html">telescope page ${k}</a>`)
    .join(' ');
  pages.set(
    `/p/${n}.html`,
    `<!doctype html><html><head><title>Telescope notes ${n}</title></head><body><p>Astronomy and telescope notes, page ${n}: stars, planets and the night sky.</p>${links}</body></html>`,
  );
}
const log = [];
const server = createServer((req, res) => {
  const ts = Date.now();
  const path = req.url ?? '/';
  if (path === '/__log') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(log));
    return;
  }
  log.push({ ts, host: (req.headers.host ?? '').split(':')[0], path });
  const page = pages.get(path);
  if (path === '/robots.txt')
    res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nAllow: /\n');
  else if (page === undefined) res.writeHead(404).end();
  else res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
});
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`port ${server.address().port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
