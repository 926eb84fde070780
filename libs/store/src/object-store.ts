import type { Readable } from 'node:stream';

/**
 * Where audio, attachments and pipeline artefacts live. Keys are relative paths such as
 * `audio/rec_x/source`. Two kinds: a directory (`file:./data/audio`, in Kubernetes a shared volume)
 * and S3-compatible object storage (`s3://bucket/prefix`), which engines read through a bounded
 * local cache.
 */
export interface ObjectStore {
  /** A local directory for scratch files (uploads in flight, engine work); never shared between pods. */
  readonly scratchDir: string;
  /** A fresh temporary path in the scratch directory (for the file store, `adopt` is then a rename). */
  tempPath(): Promise<string>;
  /** Moves a local temporary file to its key (for S3, a streaming multipart upload, then the file goes). */
  adopt(tempPath: string, key: string): Promise<void>;
  putStream(key: string, body: Readable): Promise<void>;
  putJson(key: string, value: unknown): Promise<void>;
  getJson<T>(key: string): Promise<T>;
  copy(from: string, to: string): Promise<void>;
  size(key: string): Promise<number>;
  /** Whether the object is there: false only when the store says it is not; any other failure throws. */
  exists(key: string): Promise<boolean>;
  /** Removes a key and every key under `key/`. */
  remove(key: string): Promise<void>;
  /** The object's bytes, or the inclusive byte range `[start, end]` of them (HTTP range requests). */
  read(key: string, range?: { start: number; end: number }): Readable;
  /** Runs `use` with a local file holding the object (engines such as ffmpeg read files); the file stays while `use` runs. */
  withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
