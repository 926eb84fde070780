import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

interface Entry {
  file: string;
  bytes: number;
  usedAt: number;
  pins: number;
}

/**
 * Local copies of objects, bounded in total size: the least recently used unpinned copies go
 * first. A copy is pinned while an engine reads it, so eviction never pulls a file from under it
 * (the bound may be exceeded while everything is pinned). Objects are immutable per key, so a
 * copy never goes stale; `forget` drops it when its key is removed. Copies are named by a hash of
 * their key, so a restarted process finds the copies its predecessor left and counts them.
 */
export class DiskCache {
  private readonly entries = new Map<string, Entry>();
  private readonly loading = new Map<string, Promise<Entry>>();

  private constructor(
    private readonly dir: string,
    private readonly maxBytes: number,
  ) {}

  static async open(dir: string, maxBytes: number): Promise<DiskCache> {
    await mkdir(dir, { recursive: true });
    const cache = new DiskCache(dir, maxBytes);
    for (const f of await readdir(dir)) {
      const file = path.join(dir, f);
      // A download cut short by a crash is never a copy.
      if (f.endsWith('.part')) await rm(file, { force: true });
      else {
        const st = await stat(file);
        cache.entries.set(f, { file, bytes: st.size, usedAt: st.mtimeMs, pins: 0 });
      }
    }
    await cache.evict();
    return cache;
  }

  /** The cache's current size in bytes. */
  get bytes(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.bytes;
    return n;
  }

  /** Runs `use` with a local copy of `key`, fetching it with `download(target)` when not cached. */
  async with<T>(
    key: string,
    download: (target: string) => Promise<void>,
    use: (file: string) => Promise<T>,
  ): Promise<T> {
    const entry = await this.acquire(nameOf(key), download);
    try {
      return await use(entry.file);
    } finally {
      entry.pins -= 1;
      entry.usedAt = Date.now();
      await this.evict();
    }
  }

  async forget(key: string): Promise<void> {
    const e = this.entries.get(nameOf(key));
    if (!e || e.pins > 0) return;
    this.entries.delete(nameOf(key));
    await rm(e.file, { force: true });
  }

  private async acquire(name: string, download: (target: string) => Promise<void>): Promise<Entry> {
    for (;;) {
      const cached = this.entries.get(name);
      if (cached) {
        cached.pins += 1;
        return cached;
      }
      let pending = this.loading.get(name);
      if (!pending) {
        pending = this.load(name, download).finally(() => this.loading.delete(name));
        this.loading.set(name, pending);
      }
      await pending;
    }
  }

  private async load(name: string, download: (target: string) => Promise<void>): Promise<Entry> {
    const file = path.join(this.dir, name);
    const partial = `${file}.${randomUUID()}.part`;
    try {
      await download(partial);
      await rename(partial, file);
    } catch (err) {
      await rm(partial, { force: true });
      throw err;
    }
    const entry: Entry = { file, bytes: (await stat(file)).size, usedAt: Date.now(), pins: 0 };
    this.entries.set(name, entry);
    return entry;
  }

  private async evict(): Promise<void> {
    let total = this.bytes;
    const idle = [...this.entries.entries()].filter(([, e]) => e.pins === 0).sort((a, b) => a[1].usedAt - b[1].usedAt);
    for (const [name, e] of idle) {
      if (total <= this.maxBytes) break;
      this.entries.delete(name);
      total -= e.bytes;
      await rm(e.file, { force: true });
    }
  }
}

function nameOf(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}
