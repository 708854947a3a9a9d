/**
 * Bodies of a PostgreSQL store in an S3-compatible bucket (`?bodies=s3://bucket/prefix`):
 * one object per body, `<prefix>/pages/<md5>.gz`. A PUT stores an object whole or
 * not at all, so that a reader never sees half a body.
 *
 * Where and as whom, from the environment, as AWS's own tools read it:
 * `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` (another S3-compatible service, such as
 * MinIO or Ceph, addressed path-style: `<endpoint>/<bucket>/<key>`; without one, AWS
 * S3 itself, virtual-hosted: `https://<bucket>.s3.<region>.amazonaws.com/<key>`),
 * `AWS_REGION` or `AWS_DEFAULT_REGION` (default `us-east-1`), `AWS_ACCESS_KEY_ID`,
 * `AWS_SECRET_ACCESS_KEY` and, for temporary credentials, `AWS_SESSION_TOKEN`.
 * Requests are signed with Signature Version 4 (aws4) and sent through undici.
 */
import type { Credentials } from 'aws4';
import type { Agent } from 'undici';
import { InvalidOptionError, StoreError } from '../errors/index.js';
import { checkBodyName } from './pg-bodies.js';
import { MARKER, type OutsidePlace } from './pg-body-file.js';

/** A bucket and the prefix of the store's keys in it. */
export interface S3Location {
  bucket: string;
  /** Without a leading or trailing slash; '' for the bucket's root. */
  prefix: string;
}

const BUCKET_RE = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const PREFIX_RE = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/** Reads `s3://bucket/prefix`; `InvalidOptionError` naming what is wrong. */
export function parseS3Location(text: string, where: string): S3Location {
  const m = /^s3:\/\/([^/]+)\/*(.*?)\/*$/.exec(text);
  const bucket = m?.[1] ?? '';
  const prefix = m?.[2] ?? '';
  if (m === null || !BUCKET_RE.test(bucket)) {
    throw new InvalidOptionError(
      `${where}: expected s3://bucket/prefix with a bucket of 3 … 63 lowercase letters, digits, dots and hyphens, got ${JSON.stringify(text)}`,
    );
  }
  if (prefix !== '' && !PREFIX_RE.test(prefix)) {
    throw new InvalidOptionError(
      `${where}: the prefix of ${JSON.stringify(text)} may hold letters, digits, '.', '_', '-' and '/' only`,
    );
  }
  return { bucket, prefix };
}

/** What the requests need from the environment. */
interface S3Access {
  /** The endpoint's origin and whether buckets go in its path. */
  origin: string;
  pathStyle: boolean;
  region: string;
  credentials: Credentials;
}

type Env = Readonly<Record<string, string | undefined>>;

function accessFrom(loc: S3Location, env: Env, shown: string): S3Access {
  const region = env['AWS_REGION'] || env['AWS_DEFAULT_REGION'] || 'us-east-1';
  const accessKeyId = env['AWS_ACCESS_KEY_ID'];
  const secretAccessKey = env['AWS_SECRET_ACCESS_KEY'];
  if (!accessKeyId || !secretAccessKey) {
    throw new StoreError(
      `bodies in ${shown} need credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`,
    );
  }
  const sessionToken = env['AWS_SESSION_TOKEN'];
  const credentials = sessionToken
    ? { accessKeyId, secretAccessKey, sessionToken }
    : { accessKeyId, secretAccessKey };
  const endpoint = env['AWS_ENDPOINT_URL_S3'] || env['AWS_ENDPOINT_URL'];
  if (!endpoint) {
    return {
      origin: `https://${loc.bucket}.s3.${region}.amazonaws.com`,
      pathStyle: false,
      region,
      credentials,
    };
  }
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    throw new InvalidOptionError(`AWS_ENDPOINT_URL: not a URL: ${JSON.stringify(endpoint)}`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new InvalidOptionError(
      `AWS_ENDPOINT_URL: expected http(s)://host[:port], got ${u.origin}`,
    );
  }
  return { origin: u.origin, pathStyle: true, region, credentials };
}

/** Attempts of a request that failed on the way or with a 5xx (S3's "slow down"). */
const ATTEMPTS = 4;
const RETRY_STATUS = new Set([500, 502, 503, 504]);
/** Connections to the endpoint at most, and how long an answer may take. */
const CONNECTIONS = 16;
const TIMEOUT_MS = 60_000;

export class S3Bodies implements OutsidePlace {
  readonly shown: string;
  readonly inTransaction = false;
  readonly #loc: S3Location;
  readonly #env: Env;
  #access: S3Access | undefined;
  /** Made at the first request: the signing and HTTP modules load only where S3 is used. */
  #agent: Agent | undefined;

  /**
   * The place at `loc`, reached as the environment `env` says, read at the first
   * request: a process that reads no body (`status`) needs no credentials.
   */
  constructor(loc: S3Location, env: Env = process.env) {
    this.#loc = loc;
    this.#env = env;
    this.shown = `s3://${loc.bucket}${loc.prefix === '' ? '' : `/${loc.prefix}`}`;
  }

  #key(name: string): string {
    return this.#loc.prefix === '' ? name : `${this.#loc.prefix}/${name}`;
  }

  /** One signed request; retried on a network error or a 5xx. */
  async #send(
    method: 'GET' | 'PUT',
    key: string,
    body?: Uint8Array,
  ): Promise<{ status: number; data: Buffer }> {
    this.#access ??= accessFrom(this.#loc, this.#env, this.shown);
    const a = this.#access;
    const [{ default: aws4 }, { Agent, request }] = await Promise.all([
      import('aws4'),
      import('undici'),
    ]);
    this.#agent ??= new Agent({
      connections: CONNECTIONS,
      headersTimeout: TIMEOUT_MS,
      bodyTimeout: TIMEOUT_MS,
    });
    const agent = this.#agent;
    const path = `${a.pathStyle ? `/${this.#loc.bucket}` : ''}/${key.split('/').map(encodeURIComponent).join('/')}`;
    const url = new URL(path, a.origin);
    let last: unknown;
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      if (attempt > 1) await new Promise((r) => setTimeout(r, 100 * 2 ** (attempt - 2)));
      const signed = aws4.sign(
        {
          host: url.host,
          path: url.pathname,
          method,
          service: 's3',
          region: a.region,
          headers: body === undefined ? {} : { 'Content-Type': 'application/gzip' },
          ...(body === undefined ? {} : { body }),
        },
        a.credentials,
      );
      try {
        const res = await request(url, {
          method,
          headers: signed.headers as Record<string, string>,
          ...(body === undefined ? {} : { body }),
          dispatcher: agent,
        });
        const data = Buffer.from(await res.body.arrayBuffer());
        if (RETRY_STATUS.has(res.statusCode) && attempt < ATTEMPTS) {
          last = new Error(`HTTP ${res.statusCode}`);
          continue;
        }
        return { status: res.statusCode, data };
      } catch (e) {
        last = e;
      }
    }
    throw new StoreError(
      `${method} s3://${this.#loc.bucket}/${key} failed: ${(last as Error).message} (${ATTEMPTS} attempts)`,
      { cause: last },
    );
  }

  #failed(method: string, key: string, status: number, data: Buffer): Error {
    const code = /<Code>([^<]*)<\/Code>/.exec(data.toString('utf8'))?.[1];
    return new StoreError(
      `${method} s3://${this.#loc.bucket}/${key} failed: HTTP ${status}${code === undefined ? '' : ` ${code}`}`,
    );
  }

  async #put(key: string, data: Uint8Array): Promise<void> {
    const r = await this.#send('PUT', key, data);
    if (r.status !== 200) throw this.#failed('PUT', key, r.status, r.data);
  }

  async #get(key: string): Promise<Buffer | null> {
    const r = await this.#send('GET', key);
    if (r.status === 404) return null;
    if (r.status !== 200) throw this.#failed('GET', key, r.status, r.data);
    return r.data;
  }

  put(name: string, gz: Uint8Array): Promise<void> {
    checkBodyName('put body', name);
    return this.#put(this.#key(name), gz);
  }

  get(name: string): Promise<Buffer | null> {
    checkBodyName('get body', name);
    return this.#get(this.#key(name));
  }

  async readMarker(): Promise<string | null> {
    return (await this.#get(this.#key(MARKER)))?.toString('utf8') ?? null;
  }

  writeMarker(text: string): Promise<void> {
    return this.#put(this.#key(MARKER), Buffer.from(text));
  }

  #closing: Promise<void> | undefined;
  close(): Promise<void> {
    this.#closing ??= this.#agent?.close() ?? Promise.resolve();
    return this.#closing;
  }
}
