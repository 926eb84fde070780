import { FileStore } from './file-store';
import { S3Store } from './s3-store';
import type { ObjectStore } from './object-store';
import type { StoreConfig } from './store-config';

export type { ObjectStore } from './object-store';

export { readStoreConfig, type StoreConfig, type S3Settings } from './store-config';

/** Opens the store the configuration names (`file:<dir>` or `s3://bucket/prefix`). */
export async function openStore(config: StoreConfig | string): Promise<ObjectStore> {
  const c: StoreConfig =
    typeof config === 'string' ? { url: config, s3: null, cacheDir: '', cacheMaxBytes: 0 } : config;
  if (c.url.startsWith('file:')) return FileStore.open(c.url.slice('file:'.length));
  if (c.url.startsWith('s3://')) return S3Store.open(c);
  throw new Error(`AUDIO_STORE_URL ${c.url}: expected file:<dir> or s3://bucket/prefix`);
}
