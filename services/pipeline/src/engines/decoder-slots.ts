/**
 * The decoder processes one pipeline process runs at once, shared by all its transcriptions:
 * chunks queue for a slot first come, first served. A meeting planned in several chunks beside
 * another therefore never oversubscribes the cores, and once the other finishes its remaining
 * chunks take the freed slots (the last meeting of a burst is not left on one core).
 */
export class DecoderSlots {
  private free: number;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    this.free = Math.max(1, size);
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next in line, so a newcomer cannot overtake it.
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}
