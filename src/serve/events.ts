/**
 * `GET /api/events`: Server-Sent Events. A `status` event (the body of `/api/status`)
 * at once and then every `intervalMs`; an `error` event (`{ error: { code, message } }`)
 * when the status cannot be read, the stream going on. Streams end when the client
 * goes, or when the server closes (`closeAll`).
 */
import type { FastifyInstance } from 'fastify';
import { errorBody } from './errors.js';
import { parseQuery } from './params.js';
import type { StatusSource } from './status.js';

export interface EventStreams {
  /** Streams open now. */
  readonly size: number;
  /** Ends every stream (before the server closes). */
  closeAll(): void;
}

export function eventRoutes(
  app: FastifyInstance,
  status: StatusSource,
  intervalMs: number,
): EventStreams {
  const open = new Set<() => void>();
  app.get('/api/events', async (req, reply) => {
    parseQuery({}, req.query);
    reply.hijack();
    const res = reply.raw;
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 2000\n\n');
    let busy = false;
    let ended = false;
    const send = async () => {
      if (busy || ended) return;
      busy = true;
      try {
        const s = await status.get();
        if (!ended) res.write(`event: status\nid: ${s.at}\ndata: ${JSON.stringify(s)}\n\n`);
      } catch (e) {
        if (!ended) res.write(`event: error\ndata: ${JSON.stringify(errorBody(e).body)}\n\n`);
      } finally {
        busy = false;
      }
    };
    const timer = setInterval(() => void send(), intervalMs);
    const end = () => {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      open.delete(close);
    };
    const close = () => {
      end();
      res.end();
    };
    open.add(close);
    req.raw.on('close', end);
    res.on('error', end);
    await send();
  });
  return {
    get size() {
      return open.size;
    },
    closeAll() {
      for (const close of [...open]) close();
    },
  };
}
