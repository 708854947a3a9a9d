import { CliUsageError } from '../../errors/index.js';
import { startServer } from '../../serve/index.js';
import { connectStore } from '../../store/index.js';
import { bool, type FlagSpec, int, parseFlags, str } from '../args.js';
import type { Io } from '../index.js';
import { withFlag } from '../system-errors.js';

const HELP = `Usage: focuscrawl serve --store DIR|URL [--port 8080] [--host 127.0.0.1] [--token T] [--read-only]

Serves a crawl store over HTTP while crawls run on it (or after): a REST API
(docs/api.md; its OpenAPI description at /openapi.json), live progress as
Server-Sent Events (/api/events), and a dashboard at / (docs/dashboard.md). Through
it, the crawls on the store are paused, resumed or stopped, their threshold or the
topic's keyword weights changed, seeds added (crawl --serve serves while crawling).

  --store DIR|URL    the crawl store: a directory, or postgres://… (opened for writing,
                     beside a crawl running on it: the control routes write to it)
  --port N           TCP port (default 8080; 0 for any free port)
  --host ADDR        address to listen on (default 127.0.0.1: this machine only). Any
                     other address makes every API route need the token, and without
                     --token one is generated and printed
  --token T          the token (16 to 256 printable characters, no spaces) that control
                     routes need as the header Authorization: Bearer T; default: one
                     generated and printed (in the dashboard's address, ?token=T)
  --read-only        control routes answer 403; the store is opened for reading only

Ctrl-C stops the server.`;

const flags: FlagSpec = {
  store: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  token: { type: 'string' },
  'read-only': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

const usage = (m: string) => new CliUsageError(`focuscrawl serve: ${m}`);

export async function serveCommand(argv: string[], io: Io): Promise<number> {
  const p = parseFlags('serve', argv, flags);
  if (bool(p, 'help')) {
    io.out(HELP);
    return 0;
  }
  if (p.positionals.length > 0) {
    throw usage(`unexpected argument "${p.positionals[0]}" (give the store with --store DIR)`);
  }
  const dir = str(p, 'store');
  if (dir === undefined) throw usage('--store is required (see focuscrawl serve --help)');
  const port = int(p, 'port', 'serve') ?? 8080;
  if (port > 65535) throw usage(`--port must be 0 … 65535, got ${port}`);
  const host = str(p, 'host');
  if (host !== undefined && host.trim() === '') throw usage('--host needs an address');
  const token = str(p, 'token');
  if (token !== undefined && !/^[\x21-\x7e]{16,256}$/.test(token)) {
    throw usage('--token must be 16 to 256 printable characters without spaces');
  }
  const readOnly = bool(p, 'read-only');
  const store = await connectStore(dir, { readonly: readOnly });
  try {
    const server = await withFlag('--port', String(port), () =>
      startServer({
        store,
        port,
        ...(host !== undefined ? { host } : {}),
        ...(token !== undefined ? { token } : {}),
        generateToken: true,
        readOnly,
        storeName: dir,
      }),
    );
    io.out(`serving ${dir} at ${server.dashboardUrl}`);
    if (server.tokenGenerated) {
      io.out(
        `token (generated): ${server.token}${readOnly ? '' : ' — control routes need the header Authorization: Bearer TOKEN'}`,
      );
    }
    if (readOnly) io.out('read-only: control routes answer 403');
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await server.close();
    return 0;
  } finally {
    await store.close();
  }
}
