// HTTPS for the test web: one port serving TLS and plain HTTP alike (each connection
// told apart by its first byte), certificates picked by the TLS server name, and what an
// HTTPS-only host answers over plain HTTP.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { createSecureContext, type SecureContext, type TLSSocket } from 'node:tls';
import { z } from 'zod';
import type { Reply } from './types.js';

const KeyCert = z.strictObject({
  /** Private key, PEM. */
  key: z.string().min(1),
  /** Certificate (chain), PEM. */
  cert: z.string().min(1),
});

/** The `tls` option: the certificate served, and per-host ones picked by the TLS server name. */
export const tlsOptionsSchema = KeyCert.extend({
  /** Host name → its own key and certificate. @default {} */
  hosts: z.record(z.string(), KeyCert).default({}),
});

export type TlsOptions = z.output<typeof tlsOptionsSchema>;

/** The test web's timeouts, on its HTTP and HTTPS servers alike. */
export function tuneServer(server: Server): void {
  server.keepAliveTimeout = 30_000;
  server.headersTimeout = 20_000;
  server.requestTimeout = 0;
}

/** Whether `req` came over TLS. */
export function overTls(req: IncomingMessage): boolean {
  return (req.socket as Partial<TLSSocket>).encrypted === true;
}

/**
 * The listening server of a web that serves HTTPS too: each connection goes to an
 * HTTPS server when its first byte opens a TLS handshake (0x16), else to `plain`.
 * The certificate is picked by the TLS server name (`tls.hosts`, else `tls`).
 * `closeAll` drops every connection (for the web's `close`).
 */
export function tlsFront(
  tls: TlsOptions,
  plain: Server,
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): { server: NetServer; closeAll(): void } {
  const contexts = new Map<string, SecureContext>();
  for (const [host, kc] of Object.entries(tls.hosts)) {
    contexts.set(host.toLowerCase(), createSecureContext({ key: kc.key, cert: kc.cert }));
  }
  const secure = createHttpsServer(
    {
      key: tls.key,
      cert: tls.cert,
      keepAlive: true,
      SNICallback: (name, cb) => cb(null, contexts.get(name.toLowerCase())),
    },
    handle,
  );
  tuneServer(secure);
  // A client that drops a handshake (it refused the certificate) is no error of the web's.
  secure.on('tlsClientError', () => {});
  const sockets = new Set<Socket>();
  const server = createNetServer({ pauseOnConnect: true }, (socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('readable', () => {
      const first = socket.read(1) as Buffer | null;
      if (first === null) {
        socket.destroy();
        return;
      }
      socket.unshift(first);
      (first[0] === 0x16 ? secure : plain).emit('connection', socket);
    });
    // Start reading (the connection was paused on connect) so that 'readable' comes.
    socket.resume();
    socket.pause();
  });
  return {
    server,
    closeAll() {
      secure.closeAllConnections();
      for (const s of sockets) s.destroy();
    },
  };
}

/** What an HTTPS-only host answers over plain HTTP: robots.txt allowing all, else a 301 to https. */
export function plainHttpReply(host: string, path: string): Reply {
  if (path === '/robots.txt') {
    return {
      status: 200,
      headers: { 'content-type': 'text/plain' },
      body: 'User-agent: *\nAllow: /\n',
    };
  }
  return {
    status: 301,
    headers: { location: `https://${host}${path}`, 'content-type': 'text/html' },
    body: `<a href="https://${host}${path}">moved to HTTPS</a>`,
  };
}
