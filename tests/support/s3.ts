import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
// s3rver ships no types; the part used here is typed below.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3rver = require('s3rver') as new (
  opts: Record<string, unknown>,
) => { run(): Promise<AddressInfo>; close(): Promise<void> };

export interface S3Server {
  /** The endpoint (`http://127.0.0.1:<port>`). */
  endpoint: string;
  bucket: string;
  /** The environment a service needs to keep its audio in this server under `prefix`. */
  env(prefix?: string): Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on a free port, with one bucket, its objects in a temporary
 * directory that goes on stop. It speaks S3's REST protocol (multipart uploads, listing, batch delete).
 */
export async function startS3Server(bucket = 'meeting-audio'): Promise<S3Server> {
  const directory = mkdtempSync(path.join(tmpdir(), 'mm-s3-'));
  const cacheDir = mkdtempSync(path.join(tmpdir(), 'mm-s3cache-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const addr = await server.run();
  const endpoint = `http://127.0.0.1:${addr.port}`;
  return {
    endpoint,
    bucket,
    env: (prefix = 'test') => ({
      AUDIO_STORE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      // s3rver's built-in credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      AUDIO_CACHE_DIR: path.join(cacheDir, prefix),
    }),
    stop: async () => {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
      rmSync(cacheDir, { recursive: true, force: true });
    },
  };
}
