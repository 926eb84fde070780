import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, readFile, writeFile, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';

/**
 * Where audio, attachments and pipeline artefacts live. Keys are relative paths such as
 * `audio/rec_x/source`. The filesystem store is the default (`file:./data/audio`); in Kubernetes
 * it is a shared volume mounted by recordings and pipeline.
 */
export interface ObjectStore {
  /** A local path for a key (engines such as ffmpeg read files). */
  pathOf(key: string): string;
  /** A fresh temporary path inside the store, on the same filesystem (so `adopt` is a rename). */
  tempPath(): Promise<string>;
  /** Moves a temporary file to its key. */
  adopt(tempPath: string, key: string): Promise<void>;
  putStream(key: string, body: Readable): Promise<void>;
  putJson(key: string, value: unknown): Promise<void>;
  getJson<T>(key: string): Promise<T>;
  copy(from: string, to: string): Promise<void>;
  size(key: string): Promise<number>;
  remove(key: string): Promise<void>;
  read(key: string): Readable;
}

class FileStore implements ObjectStore {
  constructor(private readonly root: string) {}

  pathOf(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(this.root + path.sep)) throw new Error(`key escapes the store: ${key}`);
    return p;
  }

  async tempPath(): Promise<string> {
    const dir = path.join(this.root, 'tmp');
    await mkdir(dir, { recursive: true });
    return path.join(dir, randomUUID());
  }

  async adopt(tempPath: string, key: string): Promise<void> {
    const target = this.pathOf(key);
    await mkdir(path.dirname(target), { recursive: true });
    await rename(tempPath, target);
  }

  async putStream(key: string, body: Readable): Promise<void> {
    const tmp = await this.tempPath();
    await pipeline(body, createWriteStream(tmp));
    await this.adopt(tmp, key);
  }

  async putJson(key: string, value: unknown): Promise<void> {
    // Write then rename: a reader never sees half a file.
    const tmp = await this.tempPath();
    await writeFile(tmp, JSON.stringify(value));
    await this.adopt(tmp, key);
  }

  async getJson<T>(key: string): Promise<T> {
    return JSON.parse(await readFile(this.pathOf(key), 'utf8')) as T;
  }

  async copy(from: string, to: string): Promise<void> {
    const target = this.pathOf(to);
    await mkdir(path.dirname(target), { recursive: true });
    await copyFile(this.pathOf(from), target);
  }

  async size(key: string): Promise<number> {
    return (await stat(this.pathOf(key))).size;
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true, recursive: true });
  }

  read(key: string): Readable {
    return createReadStream(this.pathOf(key));
  }
}

/** Opens the store named by AUDIO_STORE (`file:<dir>`). */
export async function openStore(spec: string): Promise<ObjectStore> {
  if (!spec.startsWith('file:')) throw new Error(`AUDIO_STORE ${spec}: only file:<dir> is supported`);
  const root = path.resolve(spec.slice('file:'.length));
  await mkdir(root, { recursive: true });
  return new FileStore(root);
}
