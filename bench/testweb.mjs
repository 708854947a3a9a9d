// Test-web server throughput: this process serves the test web; a child process drives it
// with an undici Pool (keep-alive, N connections) over a fixed list of topical pages, each
// request carrying its page's Host header. Prints requests/s, MB/s and the server's CPU time.
//
//   npm run build && node bench/testweb.mjs [--pages 50000] [--connections 64] [--size large] [--rounds 3]
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    pages: { type: 'string', default: '50000' },
    connections: { type: 'string', default: '64' },
    size: { type: 'string', default: 'large' },
    rounds: { type: 'string', default: '3' },
    role: { type: 'string' },
    port: { type: 'string' },
  },
});
const PAGES = Number(values.pages);
const CONN = Number(values.connections);

async function urlList() {
  const { listPageUrls } = await import('../dist/testweb/index.js');
  return listPageUrls({ seed: 1, size: values.size }, PAGES).map((u) => {
    const url = new URL(u);
    return [url.hostname, url.pathname];
  });
}

// ---------- child: the client ----------
async function roleClient() {
  const { Pool } = await import('undici');
  const list = await urlList();
  const pool = new Pool(`http://127.0.0.1:${values.port}`, {
    connections: CONN,
    pipelining: 1,
    keepAliveTimeout: 30_000,
  });
  const run = async (count) => {
    let next = 0;
    let bytes = 0;
    let errors = 0;
    const t0 = process.hrtime.bigint();
    const c0 = process.cpuUsage();
    const worker = async () => {
      while (next < count) {
        const [host, path] = list[next++ % list.length];
        try {
          const res = await pool.request({ method: 'GET', path, headers: { host } });
          for await (const chunk of res.body) bytes += chunk.length;
          if (res.statusCode !== 200) errors++;
        } catch {
          errors++;
        }
      }
    };
    await Promise.all(Array.from({ length: CONN }, worker));
    const s = Number(process.hrtime.bigint() - t0) / 1e9;
    const c = process.cpuUsage(c0);
    return { requests: count, seconds: s, bytes, errors, clientCpu: (c.user + c.system) / 1e6 / s };
  };
  await run(Math.min(2_000, list.length)); // warm-up
  process.send({ ready: true });
  const r = await run(list.length);
  process.send({ result: r });
  await pool.close();
}

// ---------- main: the server ----------
async function main() {
  const { startTestWeb } = await import('../dist/testweb/index.js');
  const web = await startTestWeb({ port: 0, seed: 1, size: values.size, maxLogEntries: 0 });
  const self = fileURLToPath(import.meta.url);
  const results = [];
  for (let round = 1; round <= Number(values.rounds); round++) {
    const child = fork(self, [
      '--role=client',
      `--port=${web.port}`,
      `--pages=${PAGES}`,
      `--connections=${CONN}`,
      `--size=${values.size}`,
    ]);
    let cpu0;
    const r = await new Promise((resolve, reject) => {
      child.on('message', (m) => {
        if (m.ready) cpu0 = process.cpuUsage();
        if (m.result) resolve(m.result);
      });
      child.on('error', reject);
      child.on('exit', (code) => code !== 0 && reject(new Error(`client exited with ${code}`)));
    });
    const cpu = process.cpuUsage(cpu0);
    const rps = r.requests / r.seconds;
    const mbps = r.bytes / r.seconds / 1e6;
    const serverCpu = (cpu.user + cpu.system) / 1e6 / r.seconds;
    results.push(rps);
    console.log(
      `round ${round}: ${r.requests} pages (${values.size}) over ${CONN} connections in ${r.seconds.toFixed(2)} s: ` +
        `${rps.toFixed(0)} req/s, ${mbps.toFixed(1)} MB/s, ${(r.bytes / r.requests / 1024).toFixed(1)} KiB/page, ` +
        `CPU: server ${(serverCpu * 100).toFixed(0)}%, client ${(r.clientCpu * 100).toFixed(0)}%, errors ${r.errors}`,
    );
  }
  results.sort((a, b) => a - b);
  console.log(`median: ${results[Math.floor(results.length / 2)].toFixed(0)} req/s`);
  await web.close();
}

if (values.role === 'client') await roleClient();
else await main();
