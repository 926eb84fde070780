import { TurnBatcher } from '@mm/platform';
import type { AccessRepository, ResolvedToken } from '../db/access.repository';

/** Hashes per query: a bounded IN list, planned like any other. */
const MAX_BATCH = 100;

/**
 * Loads tokens for the gate's cache misses, all the misses of one turn of the event loop in one
 * query. A cold cache (a new worker, or every entry after an access change) otherwise sends one
 * query per request at the moment Postgres is slowest to answer them.
 */
export class TokenLoader {
  private readonly batcher: TurnBatcher<string, ResolvedToken>;

  constructor(repo: Pick<AccessRepository, 'findTokensByHashes'>) {
    this.batcher = new TurnBatcher((hashes) => repo.findTokensByHashes(hashes), MAX_BATCH);
  }

  async load(hash: string): Promise<ResolvedToken | null> {
    return (await this.batcher.load(hash)) ?? null;
  }
}
