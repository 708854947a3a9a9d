/**
 * The OpenAPI 3.1 description served at `/openapi.json`: every route with its
 * parameters and responses (docs/api.md says the same in prose, with examples).
 */
import { EXPORT_FORMATS, EXPORT_WHATS } from '../export/index.js';
import { URL_STATES } from '../store/index.js';

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: Json, description: string): Json => ({
  description,
  content: { 'application/json': { schema } },
});
const err = (description: string): Json => json(ref('Error'), description);

function param(
  name: string,
  schema: Json,
  description: string,
  required = false,
  where: 'query' | 'path' = 'query',
): Json {
  return { name, in: where, required, description, schema };
}

const int = (minimum: number, maximum: number, dflt?: number): Json => ({
  type: 'integer',
  minimum,
  maximum,
  ...(dflt !== undefined ? { default: dflt } : {}),
});
const unit: Json = { type: 'number', minimum: 0, maximum: 1 };
const urlParam = param('url', { type: 'string', format: 'uri' }, 'an absolute http(s) URL', true);
const bad = err('bad input: the message names the parameter (FC_ERR_INVALID_OPTION)');
const auth = err('no token, or a wrong one (FC_ERR_UNAUTHORIZED)');

/** A read route: open on loopback, the token elsewhere. */
function read(summary: string, parameters: Json[], ok: Json, more: Json = {}): Json {
  return {
    get: {
      summary,
      parameters,
      responses: { '200': ok, '400': bad, '401': auth, ...more },
    },
  };
}

/** A control route: the token always, 403 when read-only. */
function control(method: 'post' | 'put', summary: string, body?: Json): Json {
  return {
    [method]: {
      summary,
      security: [{ bearer: [] }],
      ...(body !== undefined
        ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } }
        : {}),
      responses: {
        '200': json(ref('ControlAnswer'), 'the control value as written'),
        '400': bad,
        '401': auth,
        '403': err('the server is read-only (FC_ERR_FORBIDDEN)'),
      },
    },
  };
}

const pageRow: Json = {
  type: 'object',
  required: ['url', 'state', 'host', 'depth', 'relevance', 'rank', 'title', 'fetchedAt', 'status'],
  properties: {
    url: { type: 'string' },
    state: { enum: [...URL_STATES] },
    host: { type: 'string' },
    depth: { type: 'integer' },
    relevance: { type: ['number', 'null'] },
    rank: { type: ['number', 'null'] },
    title: { type: ['string', 'null'] },
    fetchedAt: { type: ['integer', 'null'], description: 'ms since the epoch' },
    status: { type: ['integer', 'null'] },
    snippet: { type: 'string', description: 'with q only: the text around a match' },
  },
};

/** The description of the API of `startServer`. */
export function openApi(version: string): Json {
  return {
    openapi: '3.1.0',
    info: {
      title: 'focuscrawl API',
      version,
      description:
        'Status, pages, search, frontier, hosts, series and exports of one crawl store, and control of the crawls on it. See docs/api.md.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: { code: { type: 'string' }, message: { type: 'string' } },
            },
          },
        },
        PageRow: pageRow,
        ControlAnswer: {
          type: 'object',
          properties: {
            control: {
              type: 'object',
              properties: {
                paused: { type: 'boolean' },
                stop: { type: 'boolean' },
                seq: { type: 'integer' },
                at: { type: 'integer' },
                threshold: { type: ['number', 'null'] },
                weights: { type: ['object', 'null'], additionalProperties: { type: 'number' } },
              },
            },
          },
        },
      },
    },
    paths: {
      '/openapi.json': read('this description', [], json({ type: 'object' }, 'OpenAPI 3.1')),
      '/api/status': read(
        'the status (focuscrawl status --json) with the control value and the live pages per second',
        [],
        json({ type: 'object' }, 'the status'),
      ),
      '/api/pages': read(
        'known URLs filtered and sorted, a page at a time (keyset cursor)',
        [
          param('state', { enum: [...URL_STATES] }, 'only URLs in this state'),
          param('minRelevance', unit, 'relevance at least (inclusive)'),
          param('maxRelevance', unit, 'relevance at most (inclusive)'),
          param('host', { type: 'string' }, 'exact host name'),
          param(
            'q',
            { type: 'string' },
            'full-text search of the kept pages (best matches; no sort or cursor)',
          ),
          param(
            'sort',
            { enum: ['relevance', 'fetchedAt', 'rank'], default: 'fetchedAt' },
            'sort key',
          ),
          param('order', { enum: ['desc', 'asc'], default: 'desc' }, 'direction'),
          param('limit', int(1, 500, 50), 'rows'),
          param('cursor', { type: 'string' }, 'the `next` of the previous answer'),
        ],
        json(
          {
            type: 'object',
            properties: {
              items: { type: 'array', items: ref('PageRow') },
              next: { type: ['string', 'null'] },
            },
          },
          'a page of rows',
        ),
      ),
      '/api/page': read(
        'one URL: its row, the relevance explained, links in and out, fields, history, revisits',
        [urlParam],
        json({ type: 'object' }, 'the page'),
        { '404': err('no such URL in the store (FC_ERR_NOT_FOUND)') },
      ),
      '/api/page/body': read(
        'the stored body (sandboxed: no script runs)',
        [urlParam],
        { description: 'the body, typed as sniffed', content: { '*/*': {} } },
        { '404': err('no stored body (FC_ERR_NOT_FOUND)') },
      ),
      '/api/search': read(
        'full-text search of the kept pages',
        [
          param('q', { type: 'string' }, 'words, Chinese or English', true),
          param('limit', int(1, 100, 20), 'hits'),
        ],
        json({ type: 'object', properties: { items: { type: 'array' } } }, 'hits, best first'),
      ),
      '/api/frontier': read(
        'the best waiting URLs (priority, then discovery order)',
        [param('limit', int(1, 500, 50), 'URLs')],
        json(
          {
            type: 'object',
            properties: {
              items: { type: 'array' },
              scanned: { type: 'integer' },
              complete: { type: 'boolean' },
            },
          },
          'waiting URLs, best first',
        ),
      ),
      '/api/hosts': read(
        'hosts with the most fetches',
        [param('limit', int(1, 1000, 50), 'hosts')],
        json({ type: 'object', properties: { items: { type: 'array' } } }, 'hosts'),
      ),
      '/api/series': read(
        'fetch outcomes per time bucket, harvest rate, threshold history',
        [
          param('bucketMs', int(1000, 86_400_000, 60_000), 'bucket length (ms)'),
          param('since', { type: 'integer', minimum: 0 }, 'from this time (ms since the epoch)'),
        ],
        json({ type: 'object' }, 'buckets and the threshold history'),
      ),
      '/api/export/{format}': read(
        'a table of the store as a download (focuscrawl export)',
        [
          param('format', { enum: [...EXPORT_FORMATS] }, 'the format', true, 'path'),
          param('what', { enum: [...EXPORT_WHATS], default: 'pages' }, 'the table'),
          param('state', { enum: [...URL_STATES] }, 'urls: this state; pages: complete or discard'),
          param('text', { type: 'boolean', default: true }, 'pages: with their text'),
          param('bom', { type: 'boolean', default: false }, 'csv: a UTF-8 byte-order mark'),
          param('dialect', { enum: ['sqlite', 'postgres'] }, 'sql: the database'),
        ],
        { description: 'the export, as an attachment', content: { '*/*': {} } },
      ),
      '/api/events': read('Server-Sent Events: `status` (as /api/status) every second', [], {
        description: 'an event stream',
        content: { 'text/event-stream': {} },
      }),
      '/api/control/pause': control('post', 'pause: no new request starts'),
      '/api/control/resume': control('post', 'resume (clears pause and stop)'),
      '/api/control/stop': control('post', 'stop the runs going (reason stopped)'),
      '/api/threshold': control('put', 'set the threshold', {
        type: 'object',
        required: ['value'],
        additionalProperties: false,
        properties: { value: unit },
      }),
      '/api/topic/weights': control('put', "replace the topic's keyword weights", {
        type: 'object',
        required: ['weights'],
        additionalProperties: false,
        properties: {
          weights: {
            type: 'object',
            additionalProperties: { type: 'number', exclusiveMinimum: 0 },
          },
        },
      }),
      '/api/seeds': {
        post: {
          summary: 'add seed URLs to the frontier',
          security: [{ bearer: [] }],
          requestBody: {
            required: true,
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['urls'],
                  additionalProperties: false,
                  properties: { urls: { type: 'array', items: { type: 'string' }, minItems: 1 } },
                },
              },
            },
          },
          responses: {
            '200': json(
              {
                type: 'object',
                properties: { added: { type: 'integer' }, seeds: { type: 'integer' } },
              },
              'how many were new',
            ),
            '400': bad,
            '401': auth,
            '403': err('the server is read-only (FC_ERR_FORBIDDEN)'),
          },
        },
      },
      '/': {
        get: {
          summary: 'the dashboard',
          responses: { '200': { description: 'HTML', content: { 'text/html': {} } } },
        },
      },
    },
  };
}
