import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EnvReader } from '@mm/platform';

/** S3 connection settings; credentials absent means the SDK's default chain (e.g. a pod's web identity). */
export interface S3Settings {
  endpoint: string | null;
  region: string;
  accessKeyId: string | null;
  secretAccessKey: string | null;
  forcePathStyle: boolean;
}

export interface StoreConfig {
  /** `file:<dir>` or `s3://bucket/prefix`. */
  url: string;
  s3: S3Settings | null;
  /** Where objects read by engines are cached, and scratch files live (S3 store). */
  cacheDir: string;
  cacheMaxBytes: number;
}

const MB = 1024 * 1024;

/**
 * The store's configuration: `AUDIO_STORE_URL` (the older `AUDIO_STORE` still works), and for S3
 * `S3_ENDPOINT`, `S3_REGION`, `S3_ACCESS_KEY_ID`, `S3_SECRET_ACCESS_KEY`, `S3_FORCE_PATH_STYLE`,
 * `AUDIO_CACHE_DIR`, `AUDIO_CACHE_MAX_MB`.
 */
export function readStoreConfig(r: EnvReader): StoreConfig {
  const url = r.optional('AUDIO_STORE_URL') ?? r.str('AUDIO_STORE', 'file:./data/audio');
  const name = r.optional('AUDIO_STORE_URL') ? 'AUDIO_STORE_URL' : 'AUDIO_STORE';
  const cacheDir = r.str('AUDIO_CACHE_DIR', path.join(tmpdir(), 'mm-audio-cache'));
  const cacheMaxBytes = r.num('AUDIO_CACHE_MAX_MB', 2048, 1) * MB;
  if (url.startsWith('file:')) {
    if (url.length === 'file:'.length) r.problem(`${name} must name a directory after file:`);
    return { url, s3: null, cacheDir, cacheMaxBytes };
  }
  if (!/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/.test(url)) {
    r.problem(`${name} must be file:<dir> or s3://<bucket>/<prefix> (got ${JSON.stringify(url)})`);
    return { url: 'file:./data/audio', s3: null, cacheDir, cacheMaxBytes };
  }
  const endpoint = r.optional('S3_ENDPOINT');
  if (endpoint && !/^https?:\/\/[^/]+/.test(endpoint))
    r.problem(`S3_ENDPOINT must be an http(s) URL (got ${JSON.stringify(endpoint)})`);
  const accessKeyId = r.optional('S3_ACCESS_KEY_ID');
  const secretAccessKey = r.optional('S3_SECRET_ACCESS_KEY');
  if (!accessKeyId !== !secretAccessKey)
    r.problem(
      accessKeyId
        ? 'S3_SECRET_ACCESS_KEY must be set with S3_ACCESS_KEY_ID'
        : 'S3_ACCESS_KEY_ID must be set with S3_SECRET_ACCESS_KEY',
    );
  return {
    url,
    s3: {
      endpoint,
      region: r.str('S3_REGION', 'us-east-1'),
      accessKeyId,
      secretAccessKey,
      forcePathStyle: r.bool('S3_FORCE_PATH_STYLE', endpoint !== null),
    },
    cacheDir,
    cacheMaxBytes,
  };
}
