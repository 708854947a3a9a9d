/**
 * Response body: decompression (gzip, deflate, br) with node:zlib streams and a
 * byte cap applied AFTER decompression. At the cap the decoder is destroyed and
 * the response aborted, so a compression bomb costs at most `maxBytes` of memory.
 * Bodies with no or an unknown Content-Encoding are kept as received.
 */
import type { Transform } from 'node:stream';
import {
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
} from 'node:zlib';
import { NetworkError } from '../errors/index.js';

/** What the collector needs from the response it reads. */
export interface BodyOwner {
  /** The body is complete (or failed). */
  bodyDone(err?: Error): void;
  /** The cap was reached: stop reading, the body is complete and truncated. */
  bodyCapped(): void;
  pauseInput(): void;
  resumeInput(): void;
}

const IDENTITY = 0;
const GZIP = 1;
const DEFLATE = 2;
const BROTLI = 3;

/** The decoder for a Content-Encoding value; IDENTITY for none or unknown codings. */
export function encodingOf(contentEncoding: string | undefined): number {
  if (contentEncoding === undefined) return IDENTITY;
  switch (contentEncoding.trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return GZIP;
    case 'deflate':
      return DEFLATE;
    case 'br':
      return BROTLI;
    default:
      return IDENTITY;
  }
}

const ENCODING_NAMES = ['identity', 'gzip', 'deflate', 'br'];
const EMPTY = Buffer.alloc(0);

export class BodyCollector {
  chunks: Buffer[] = [];
  /** Decompressed bytes kept. */
  bytes = 0;
  /** Bytes received from the network. */
  wireBytes = 0;
  truncated = false;
  readonly #max: number;
  readonly #encoding: number;
  readonly #owner: BodyOwner;
  readonly #url: string;
  #decoder: Transform | null = null;
  #finished = false;

  constructor(owner: BodyOwner, maxBytes: number, encoding: number, url: string) {
    this.#owner = owner;
    this.#max = maxBytes;
    this.#encoding = encoding;
    this.#url = url;
  }

  /** Takes a chunk from the network. */
  write(chunk: Buffer): void {
    if (this.#finished) return;
    this.wireBytes += chunk.length;
    if (this.#encoding === IDENTITY) {
      this.#keep(chunk);
      return;
    }
    const d = this.#decoder ?? this.#startDecoder(chunk);
    if (!d.write(chunk)) {
      this.#owner.pauseInput();
      d.once('drain', () => this.#owner.resumeInput());
    }
  }

  /** The network body ended. */
  end(): void {
    if (this.#finished) return;
    if (this.#decoder === null) this.#finish();
    else this.#decoder.end();
  }

  /** Stops decoding (the response failed or was abandoned). */
  destroy(): void {
    this.#finished = true;
    this.#decoder?.destroy();
  }

  body(): Buffer {
    const c = this.chunks;
    if (c.length === 1) return c[0]!;
    return c.length === 0 ? EMPTY : Buffer.concat(c, this.bytes);
  }

  #keep(chunk: Buffer): void {
    const room = this.#max - this.bytes;
    if (chunk.length <= room) {
      this.chunks.push(chunk);
      this.bytes += chunk.length;
      return;
    }
    if (room > 0) {
      this.chunks.push(chunk.subarray(0, room));
      this.bytes += room;
    }
    this.truncated = true;
    this.#finished = true;
    this.#decoder?.destroy();
    this.#owner.bodyCapped();
  }

  #finish(err?: Error): void {
    if (this.#finished) return;
    this.#finished = true;
    this.#owner.bodyDone(err);
  }

  #startDecoder(first: Buffer): Transform {
    let d: Transform;
    const flush = { finishFlush: constants.Z_SYNC_FLUSH };
    if (this.#encoding === GZIP) d = createGunzip(flush);
    else if (this.#encoding === BROTLI) {
      d = createBrotliDecompress({ finishFlush: constants.BROTLI_OPERATION_FLUSH });
    } else {
      // "deflate" should be zlib-wrapped (RFC 9110) but some servers send raw deflate.
      const zlibHeader =
        first.length >= 2 && (first[0]! & 0x0f) === 8 && ((first[0]! << 8) | first[1]!) % 31 === 0;
      d = zlibHeader ? createInflate(flush) : createInflateRaw(flush);
    }
    d.on('data', (chunk: Buffer) => {
      if (!this.#finished) this.#keep(chunk);
    });
    d.on('end', () => this.#finish());
    d.on('error', (err) => {
      const name = ENCODING_NAMES[this.#encoding];
      this.#finish(
        new NetworkError(`${this.#url}: the ${name} body could not be decoded: ${err.message}`, {
          cause: err,
          url: this.#url,
          retryable: false,
        }),
      );
    });
    this.#decoder = d;
    return d;
  }
}
