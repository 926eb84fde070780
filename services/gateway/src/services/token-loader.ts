import type { AccessRepository, ResolvedToken } from '../db/access.repository';

/** Hashes per query: a bounded IN list, planned like any other. */
const MAX_BATCH = 100;

interface Waiting {
  hash: string;
  resolve: (token: ResolvedToken | null) => void;
  reject: (err: unknown) => void;
}

/**
 * Loads tokens for the gate's cache misses, all the misses of one turn of the event loop in one
 * query. A cold cache (a new worker, or every entry after an access change) otherwise sends one
 * query per request at the moment Postgres is slowest to answer them.
 */
export class TokenLoader {
  private waiting: Waiting[] = [];

  constructor(private readonly repo: Pick<AccessRepository, 'findTokensByHashes'>) {}

  load(hash: string): Promise<ResolvedToken | null> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ hash, resolve, reject });
    });
  }

  private flush(): void {
    const all = this.waiting;
    this.waiting = [];
    for (let i = 0; i < all.length; i += MAX_BATCH) void this.run(all.slice(i, i + MAX_BATCH));
  }

  private async run(batch: Waiting[]): Promise<void> {
    try {
      const found = await this.repo.findTokensByHashes([...new Set(batch.map((w) => w.hash))]);
      for (const w of batch) w.resolve(found.get(w.hash) ?? null);
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
