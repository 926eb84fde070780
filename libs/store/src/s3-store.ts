import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { randomUUID } from 'node:crypto';
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CopyObjectCommand,
  CreateMultipartUploadCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  UploadPartCommand,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { DiskCache } from './disk-cache';
import type { ObjectStore } from './object-store';
import type { StoreConfig } from './store-config';

const MB = 1024 * 1024;
/** Multipart part size; a stream's upload (lib-storage) holds at most PART_SIZE * QUEUE_SIZE in memory. */
const PART_SIZE = 5 * MB;
const QUEUE_SIZE = 2;

/** Objects in an S3-compatible bucket under a prefix; scratch files and the engines' cache on local disk. */
export class S3Store implements ObjectStore {
  private constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
    private readonly prefix: string,
    readonly scratchDir: string,
    private readonly cache: DiskCache,
  ) {}

  static async open(c: StoreConfig): Promise<S3Store> {
    const u = new URL(c.url);
    const prefix = u.pathname.replace(/^\/+/, '').replace(/\/*$/, '');
    const s3 = c.s3 ?? {
      endpoint: null,
      region: 'us-east-1',
      accessKeyId: null,
      secretAccessKey: null,
      forcePathStyle: false,
    };
    const client = new S3Client({
      region: s3.region,
      ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
      forcePathStyle: s3.forcePathStyle,
      // Checksums only where S3 demands them: a streamed body is then never held whole to checksum it,
      // and S3-compatible servers that predate the newer checksum headers keep working.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(s3.accessKeyId && s3.secretAccessKey
        ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
        : {}),
    });
    const scratchDir = path.join(c.cacheDir, 'scratch');
    await mkdir(path.join(scratchDir, 'tmp'), { recursive: true });
    const cache = await DiskCache.open(path.join(c.cacheDir, 'objects'), c.cacheMaxBytes);
    return new S3Store(client, u.hostname, prefix ? `${prefix}/` : '', scratchDir, cache);
  }

  private keyOf(key: string): string {
    if (key.split('/').some((p) => p === '..' || p === '.' || p === '') || key.startsWith('/'))
      throw new Error(`bad store key: ${key}`);
    return this.prefix + key;
  }

  async tempPath(): Promise<string> {
    return path.join(this.scratchDir, 'tmp', randomUUID());
  }

  async adopt(tempPath: string, key: string): Promise<void> {
    const { size } = await stat(tempPath);
    if (size <= PART_SIZE) {
      await this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: this.keyOf(key),
          Body: createReadStream(tempPath),
          ContentLength: size,
        }),
      );
    } else {
      await this.uploadFileInParts(tempPath, size, this.keyOf(key));
    }
    await rm(tempPath, { force: true });
  }

  /**
   * A multipart upload of a local file, each part streamed from its byte range of the file: no part
   * is ever buffered (lib-storage's Upload, used for streams of unknown length, buffers each part).
   */
  private async uploadFileInParts(file: string, size: number, Key: string): Promise<void> {
    const { UploadId } = await this.client.send(new CreateMultipartUploadCommand({ Bucket: this.bucket, Key }));
    try {
      const parts: { PartNumber: number; ETag: string }[] = [];
      for (let start = 0, n = 1; start < size; start += PART_SIZE, n++) {
        const end = Math.min(start + PART_SIZE, size) - 1;
        const res = await this.client.send(
          new UploadPartCommand({
            Bucket: this.bucket,
            Key,
            UploadId,
            PartNumber: n,
            Body: createReadStream(file, { start, end }),
            ContentLength: end - start + 1,
          }),
        );
        parts.push({ PartNumber: n, ETag: res.ETag! });
      }
      await this.client.send(
        new CompleteMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId, MultipartUpload: { Parts: parts } }),
      );
    } catch (err) {
      await this.client
        .send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId }))
        .catch(() => undefined);
      throw err;
    }
  }

  async putStream(key: string, body: Readable): Promise<void> {
    // lib-storage reads the stream part by part: a 500 MB upload never sits in memory whole.
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.bucket, Key: this.keyOf(key), Body: body },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
    });
    await upload.done();
  }

  async putJson(key: string, value: unknown): Promise<void> {
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: this.keyOf(key),
        Body: JSON.stringify(value),
        ContentType: 'application/json',
      }),
    );
  }

  async getJson<T>(key: string): Promise<T> {
    const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
    return JSON.parse(await res.Body!.transformToString('utf8')) as T;
  }

  async copy(from: string, to: string): Promise<void> {
    const source = `${this.bucket}/${this.keyOf(from).split('/').map(encodeURIComponent).join('/')}`;
    await this.client.send(new CopyObjectCommand({ Bucket: this.bucket, Key: this.keyOf(to), CopySource: source }));
  }

  async size(key: string): Promise<number> {
    const res = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
    return res.ContentLength ?? 0;
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      return true;
    } catch (err) {
      if ((err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
    await this.cache.forget(key);
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${this.keyOf(key)}/`, ContinuationToken: token }),
      );
      const keys = (page.Contents ?? []).map((o) => o.Key!).filter(Boolean);
      if (keys.length)
        await this.client.send(
          new DeleteObjectsCommand({
            Bucket: this.bucket,
            Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
          }),
        );
      for (const k of keys) await this.cache.forget(k.slice(this.prefix.length));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    const out = new PassThrough();
    const Range = range ? `bytes=${range.start}-${range.end}` : undefined;
    this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key), Range })).then(
      (res) => pipeline(res.Body as Readable, out).catch((err: Error) => out.destroy(err)),
      (err: Error) => out.destroy(err),
    );
    return out;
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    const download = async (target: string) => {
      const res = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: this.keyOf(key) }));
      await pipeline(res.Body as Readable, createWriteStream(target));
    };
    return this.cache.with(key, download, use);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
