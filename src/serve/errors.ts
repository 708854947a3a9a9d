/**
 * Errors as the API answers them: `{ error: { code, message } }` with the project's
 * codes (docs/errors.md) and an HTTP status by code. A request fastify itself refuses
 * (malformed JSON, a body too large, a media type it does not take) is a 4xx with
 * `FC_ERR_INVALID_OPTION`; anything else unexpected is a 500 with `FC_ERR_INTERNAL`.
 */
import type { FastifyInstance } from 'fastify';
import { type ErrorCode, isFocusCrawlError, NotFoundError } from '../errors/index.js';

/** The code of a 500 that is no error of focuscrawl's on purpose (a fault to report). */
export const INTERNAL_CODE = 'FC_ERR_INTERNAL';

const STATUS: Partial<Record<ErrorCode, number>> = {
  FC_ERR_INVALID_OPTION: 400,
  FC_ERR_INVALID_URL: 400,
  FC_ERR_TOPIC_FILE: 400,
  FC_ERR_UNAUTHORIZED: 401,
  FC_ERR_FORBIDDEN: 403,
  FC_ERR_NOT_FOUND: 404,
};

export interface ErrorReply {
  status: number;
  body: { error: { code: string; message: string } };
}

export function errorBody(e: unknown): ErrorReply {
  if (isFocusCrawlError(e)) {
    return { status: STATUS[e.code] ?? 500, body: { error: { code: e.code, message: e.message } } };
  }
  const status = (e as { statusCode?: unknown }).statusCode;
  const message = e instanceof Error ? e.message : String(e);
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return {
      status,
      body: { error: { code: 'FC_ERR_INVALID_OPTION', message: `request: ${message}` } },
    };
  }
  return { status: 500, body: { error: { code: INTERNAL_CODE, message } } };
}

export function errorHandlers(app: FastifyInstance): void {
  app.setErrorHandler((e, _req, reply) => {
    const { status, body } = errorBody(e);
    if (status === 401) reply.header('www-authenticate', 'Bearer');
    return reply.status(status).send(body);
  });
  app.setNotFoundHandler((req) => {
    throw new NotFoundError(`no route ${req.method} ${req.url.split('?')[0]}`);
  });
}
