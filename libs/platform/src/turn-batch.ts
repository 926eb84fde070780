interface Waiting<K, V> {
  key: K;
  resolve: (value: V | undefined) => void;
  reject: (err: unknown) => void;
}

/**
 * Looks keys up together: every key asked for in one turn of the event loop goes out in one
 * lookup (up to `maxKeys` per lookup; more are split), sent once the turn's I/O callbacks have
 * run (setImmediate). Under load, the requests whose own reads finished in the same turn then
 * share one round trip instead of one each; alone, a key waits for nothing but the end of its
 * turn. Each lookup starts after every key in it was asked for, so its answer is never older
 * than the question. A failed lookup fails the keys it carried, and only those.
 */
export class TurnBatcher<K, V> {
  private waiting: Waiting<K, V>[] = [];

  constructor(
    private readonly lookup: (keys: K[]) => Promise<ReadonlyMap<K, V>>,
    private readonly maxKeys: number,
  ) {}

  /** The key's value, or undefined when the lookup does not have it. */
  load(key: K): Promise<V | undefined> {
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.flush());
      this.waiting.push({ key, resolve, reject });
    });
  }

  private flush(): void {
    const all = this.waiting;
    this.waiting = [];
    for (let i = 0; i < all.length; i += this.maxKeys) void this.run(all.slice(i, i + this.maxKeys));
  }

  private async run(batch: Waiting<K, V>[]): Promise<void> {
    try {
      const found = await this.lookup([...new Set(batch.map((w) => w.key))]);
      for (const w of batch) w.resolve(found.get(w.key));
    } catch (err) {
      for (const w of batch) w.reject(err);
    }
  }
}
