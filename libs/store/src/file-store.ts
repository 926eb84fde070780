import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat, readFile, writeFile, copyFile } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { randomUUID } from 'node:crypto';
import type { ObjectStore } from './object-store';

/** Objects as files under one directory; temporary files on the same filesystem, so adopting is a rename. */
export class FileStore implements ObjectStore {
  private constructor(private readonly root: string) {}

  static async open(dir: string): Promise<FileStore> {
    const root = path.resolve(dir);
    await mkdir(path.join(root, 'tmp'), { recursive: true });
    return new FileStore(root);
  }

  get scratchDir(): string {
    return this.root;
  }

  private pathOf(key: string): string {
    const p = path.resolve(this.root, key);
    if (!p.startsWith(this.root + path.sep)) throw new Error(`key escapes the store: ${key}`);
    return p;
  }

  async tempPath(): Promise<string> {
    return path.join(this.root, 'tmp', randomUUID());
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

  async exists(key: string): Promise<boolean> {
    try {
      await stat(this.pathOf(key));
      return true;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true, recursive: true });
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    return createReadStream(this.pathOf(key), range);
  }

  async withLocalFile<T>(key: string, use: (path: string) => Promise<T>): Promise<T> {
    return use(this.pathOf(key));
  }

  async close(): Promise<void> {}
}
