import { createReadStream, createWriteStream } from 'node:fs';
import { readFile, stat, access } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createHash, randomBytes } from 'node:crypto';
import { EnvReader } from '@mm/platform';
import { openStore, readStoreConfig, type ObjectStore } from '../src';
import { startS3Server, type S3Server } from '../../../tests/support/s3';

const MB = 1024 * 1024;

function configOf(env: Record<string, string>) {
  const r = new EnvReader(env);
  return r.done('test', readStoreConfig(r));
}

async function sha(path: string): Promise<string> {
  const h = createHash('sha256');
  await pipeline(createReadStream(path), h);
  return h.digest('hex');
}

async function gone(p: Promise<unknown>): Promise<boolean> {
  return p.then(
    () => false,
    (err: { name?: string; $metadata?: { httpStatusCode?: number } }) =>
      err.name === 'NotFound' || err.name === 'NoSuchKey' || err.$metadata?.httpStatusCode === 404,
  );
}

describe('the S3 store against a real S3-protocol server', () => {
  let s3: S3Server;
  let store: ObjectStore;

  beforeAll(async () => {
    s3 = await startS3Server();
    store = await openStore({ ...configOf(s3.env('store-test')), cacheMaxBytes: 20 * MB });
  });
  afterAll(async () => {
    await store.close();
    await s3.stop();
  });

  it('adopts a 30 MB file as a multipart upload and reads the same bytes back through the local cache', async () => {
    const tmp = await store.tempPath();
    await pipeline(
      Readable.from(
        (function* () {
          for (let i = 0; i < 30; i++) yield randomBytes(MB);
        })(),
      ),
      createWriteStream(tmp),
    );
    const want = await sha(tmp);
    await store.adopt(tmp, 'audio/rec_1/source');
    await expect(access(tmp)).rejects.toThrow();
    expect(await store.size('audio/rec_1/source')).toBe(30 * MB);
    const got = await store.withLocalFile('audio/rec_1/source', (p) => sha(p));
    expect(got).toBe(want);
  });

  it('keeps JSON documents and streams an object out', async () => {
    await store.putJson('work/rec_2/transcript-job_1.json', { language: 'en', segments: [1, 2] });
    expect(await store.getJson('work/rec_2/transcript-job_1.json')).toEqual({ language: 'en', segments: [1, 2] });
    await store.putStream('audio/rec_2/source', Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    const chunks: Buffer[] = [];
    for await (const c of store.read('audio/rec_2/source')) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('hello world');
    await store.copy('audio/rec_2/source', 'audio/rec_3/source');
    expect(await store.size('audio/rec_3/source')).toBe(11);
  });

  it('removes a key with everything under it, and the cached copy with it', async () => {
    await store.putStream('audio/rec_4/source', Readable.from([Buffer.alloc(1000, 1)]));
    await store.putJson('audio/rec_4/attachment.pdf', { x: 1 });
    const cached = await store.withLocalFile('audio/rec_4/source', async (p) => p);
    expect(await store.exists('audio/rec_4/source')).toBe(true);
    await store.remove('audio/rec_4');
    expect(await gone(store.size('audio/rec_4/source'))).toBe(true);
    expect(await store.exists('audio/rec_4/source')).toBe(false);
    expect(await gone(store.size('audio/rec_4/attachment.pdf'))).toBe(true);
    await expect(access(cached)).rejects.toThrow();
    expect(await store.size('audio/rec_3/source')).toBe(11);
  });

  it('bounds the cache: the least recently used copy goes, a copy in use stays', async () => {
    for (const n of [1, 2, 3]) await store.putStream(`audio/big_${n}/source`, Readable.from([Buffer.alloc(8 * MB, n)]));
    const first = await store.withLocalFile('audio/big_1/source', async (p) => p);
    let pinned = '';
    await store.withLocalFile('audio/big_2/source', async (p2) => {
      pinned = p2;
      // 8 + 8 + 8 MB > 20 MB: big_1 (least recently used) goes; big_2 is in use and stays.
      const third = await store.withLocalFile('audio/big_3/source', async (p3) => (await stat(p3)).size);
      expect(third).toBe(8 * MB);
      expect((await readFile(p2))[0]).toBe(2);
    });
    await expect(access(first)).rejects.toThrow();
    await expect(access(pinned)).resolves.toBeUndefined();
  });

  it('refuses a key that climbs out of its prefix', async () => {
    await expect(store.putJson('../other/x', {})).rejects.toThrow(/bad store key/);
  });

  it('fails a write to a bucket that does not exist', async () => {
    const bad = await openStore(configOf({ ...s3.env('store-test'), AUDIO_STORE_URL: 's3://no-such-bucket/p' }));
    await expect(bad.putJson('x.json', {})).rejects.toThrow(/bucket/i);
    await bad.close();
  });
});

describe('the store configuration', () => {
  it('keeps AUDIO_STORE working and prefers AUDIO_STORE_URL', () => {
    expect(configOf({ AUDIO_STORE: 'file:/tmp/a' }).url).toBe('file:/tmp/a');
    expect(configOf({ AUDIO_STORE: 'file:/tmp/a', AUDIO_STORE_URL: 's3://b-1/p' }).url).toBe('s3://b-1/p');
  });

  it('names the bad variable', () => {
    expect(() => configOf({ AUDIO_STORE_URL: 'ftp://x' })).toThrow(/AUDIO_STORE_URL must be file:<dir> or s3:/);
    expect(() => configOf({ AUDIO_STORE_URL: 's3://bucket/p', S3_ACCESS_KEY_ID: 'k' })).toThrow(
      /S3_SECRET_ACCESS_KEY must be set/,
    );
    expect(() => configOf({ AUDIO_STORE_URL: 's3://bucket/p', S3_ENDPOINT: 'minio:9000' })).toThrow(
      /S3_ENDPOINT must be an http/,
    );
  });
});
