// The compression bombs of gzip.test and hostile.test: 1 GiB of zeros in about 1 MB of gzip
// or zlib-wrapped deflate, built once in a few ms.
//
// A 1 MiB run of zeros is deflated once, ending with a full flush (byte-aligned, no
// back-references outside itself); that block repeated 1024 times, then an empty final
// block, is a valid single-member deflate stream. The gzip trailer's CRC-32 of 1 GiB of
// zeros is computed by CRC combination (as zlib's crc32_combine), not by scanning.
import { constants, deflateRawSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/** CRC-32 (as in gzip and PNG) of `buf`, continuing from `crc`. */
export function crc32(buf: Uint8Array, crc = 0): number {
  let c = (crc ^ 0xffffffff) >>> 0;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]!) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function gf2Times(mat: Uint32Array, vec: number): number {
  let sum = 0;
  let v = vec >>> 0;
  for (let i = 0; v !== 0; i++, v >>>= 1) if (v & 1) sum ^= mat[i]!;
  return sum >>> 0;
}

function gf2Square(square: Uint32Array, mat: Uint32Array): void {
  for (let n = 0; n < 32; n++) square[n] = gf2Times(mat, mat[n]!);
}

/** CRC-32 of A‖B from crc(A), crc(B) and len(B) (zlib's crc32_combine). */
export function crc32Combine(crc1: number, crc2: number, len2: number): number {
  if (len2 <= 0) return crc1 >>> 0;
  const even = new Uint32Array(32);
  const odd = new Uint32Array(32);
  odd[0] = 0xedb88320;
  let row = 1;
  for (let n = 1; n < 32; n++) {
    odd[n] = row;
    row <<= 1;
  }
  gf2Square(even, odd);
  gf2Square(odd, even);
  let c1 = crc1 >>> 0;
  let len = len2;
  do {
    gf2Square(even, odd);
    if (len % 2 === 1) c1 = gf2Times(even, c1);
    len = Math.floor(len / 2);
    if (len === 0) break;
    gf2Square(odd, even);
    if (len % 2 === 1) c1 = gf2Times(odd, c1);
    len = Math.floor(len / 2);
  } while (len !== 0);
  return (c1 ^ crc2) >>> 0;
}

export const BOMB_INFLATED_BYTES = 1024 * 1024 * 1024;

let bomb: Buffer | undefined;
let zlibBomb: Buffer | undefined;
let rawBlock: Buffer | undefined;
const CHUNK_LEN = 1024 * 1024;

/** The raw deflate of 1 MiB of zeros, ending with a full flush (repeatable). */
function zerosBlock(): Buffer {
  rawBlock ??= deflateRawSync(Buffer.alloc(CHUNK_LEN), {
    level: 9,
    finishFlush: constants.Z_FULL_FLUSH,
  });
  return rawBlock;
}

/** `header`, the zeros block repeated to 1 GiB, the empty final block, then `trailer`. */
function assemble(header: Buffer, trailer: Buffer): Buffer {
  const block = zerosBlock();
  const copies = BOMB_INFLATED_BYTES / CHUNK_LEN;
  const final = Buffer.from([0x03, 0x00]); // empty final block (fixed Huffman, end-of-block)
  const out = Buffer.allocUnsafe(header.length + block.length * copies + 2 + trailer.length);
  header.copy(out, 0);
  for (let i = 0; i < copies; i++) block.copy(out, header.length + i * block.length);
  const end = header.length + block.length * copies;
  final.copy(out, end);
  trailer.copy(out, end + 2);
  return out;
}

/**
 * zlib-wrapped deflate (Content-Encoding: deflate) of 1 GiB of zeros (about 1 MB),
 * built on first use and kept. The Adler-32 of n zeros is (n mod 65521) << 16 | 1.
 */
export function deflateBomb(): Buffer {
  if (zlibBomb) return zlibBomb;
  const trailer = Buffer.alloc(4);
  trailer.writeUInt32BE((((BOMB_INFLATED_BYTES % 65521) << 16) | 1) >>> 0, 0);
  zlibBomb = assemble(Buffer.from([0x78, 0xda]), trailer);
  return zlibBomb;
}

/** gzip of 1 GiB of zeros (about 1 MB), built on first use and kept. */
export function gzipBomb(): Buffer {
  if (bomb) return bomb;
  const chunkLen = CHUNK_LEN;
  const zeros = Buffer.alloc(chunkLen);
  let crc = crc32(zeros);
  for (let len = chunkLen; len < BOMB_INFLATED_BYTES; len *= 2) crc = crc32Combine(crc, crc, len);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 255]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc, 0);
  trailer.writeUInt32LE(BOMB_INFLATED_BYTES % 2 ** 32, 4);
  bomb = assemble(header, trailer);
  return bomb;
}
