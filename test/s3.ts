// A throwaway S3-compatible server for tests (s3rver), on 127.0.0.1, keeping its
// objects in a temporary directory, with one bucket. It knows one access key
// (S3RVER / S3RVER) and refuses others, but does not check Signature Version 4
// signatures themselves.
//
//   const s3 = await startS3('bodies');
//   process.env = { ...process.env, ...s3.env };  // what the store's S3 place reads
//   await s3.stop();
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';

export interface S3Server {
  /** The AWS_* variables that point a client at this server. */
  readonly env: Record<string, string>;
  /** Whether the bucket holds an object under `key`. */
  has(key: string): boolean;
  stop(): Promise<void>;
}

export async function startS3(bucket: string): Promise<S3Server> {
  const dir = mkdtempSync(join(tmpdir(), 'focuscrawl-s3-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run().catch((e: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  });
  return {
    env: {
      AWS_ENDPOINT_URL: `http://127.0.0.1:${port}`,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    },
    // s3rver keeps an object's bytes in `<dir>/<bucket>/<key>._S3rver_object`.
    has: (key) => existsSync(join(dir, bucket, `${key}._S3rver_object`)),
    async stop() {
      try {
        await server.close();
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
