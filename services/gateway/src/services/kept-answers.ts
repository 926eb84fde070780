import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { KEPT_UNTIL_HEADER } from '@mm/http';
import type { ResolvedToken } from '../db/access.repository';
import { keptAnswerHolds, keptUntil, type KeptProof } from '../domain/kept-answer';

interface KeptAnswer extends KeptProof {
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** The largest answer kept (whoami's is under 1 KB). */
const MAX_KEPT_BYTES = 16 * 1024;

/**
 * whoami's answers, kept per token and given again while the token's wallet version in Redis (read
 * with the rate limits, in the same round trip) is the one read before the account service was
 * asked, for no longer than the account allowed (its mark) and `maxAgeMs`. Keyed by the token's
 * access state object: a revocation, a scope or name change, any access change loads a new one,
 * so nothing kept outlives the state it was answered for; the checks before it run on every
 * request as before. The account service stays the only author of the answer.
 * docs/decisions.md, "whoami answered at the gateway".
 */
export class KeptAnswers {
  private readonly kept = new WeakMap<ResolvedToken, KeptAnswer>();

  constructor(private readonly maxAgeMs: number) {}

  get enabled(): boolean {
    return this.maxAgeMs > 0;
  }

  /** Answers from what was kept for this token, if it still holds; false when the request must go to the account. */
  give(res: ServerResponse, token: ResolvedToken, walletVersion: string | null): boolean {
    const kept = this.kept.get(token);
    if (!kept || !keptAnswerHolds(kept, walletVersion, Date.now())) return false;
    res.writeHead(200, kept.headers);
    res.end(kept.body);
    return true;
  }

  /**
   * Keeps the account's answer for this token, if the account marked it keepable. `walletVersion`
   * and `askedAt`: the version read before the account was asked, and when.
   */
  keep(token: ResolvedToken, walletVersion: string, askedAt: number, status: number, headers: OutgoingHttpHeaders, body: Buffer): void {
    const mark = headers[KEPT_UNTIL_HEADER];
    const until = keptUntil(typeof mark === 'string' ? mark : undefined, askedAt, this.maxAgeMs, 0.5 + Math.random() / 2);
    if (status !== 200 || until === null || body.length > MAX_KEPT_BYTES) return;
    const { date: _date, [KEPT_UNTIL_HEADER]: _mark, ...rest } = headers;
    this.kept.set(token, { walletVersion, until, headers: rest, body });
  }
}
