import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { RouteDef } from '@mm/contract';
import { KEPT_UNTIL_HEADER, WALLET_VERSION_HEADER } from '@mm/http';
import type { ResolvedToken } from '../db/access.repository';
import { keptAnswerHolds, keptUntil, type KeptProof } from '../domain/kept-answer';
import { ReadPipelines, type AnswerTap } from './proxy';

interface KeptAnswer extends KeptProof {
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** The largest answer kept (whoami's is under 1 KB); a larger one is not even gathered past this. */
const MAX_KEPT_BYTES = 16 * 1024;

/** The only route whose answers are kept. */
const KEPT_ROUTE = 'whoami';

/**
 * whoami's answers at the gateway, the whole of it behind one switch (GATEWAY_KEEP_WHOAMI, config.ts;
 * `maxAgeMs` 0 turns it off: no wallet version is read, no header sent, nothing kept).
 *
 * Answers are kept per token and given again while the token's wallet version in Redis (read with
 * the rate limits, in the same round trip: access-gate.ts) is the one read before the account
 * service was asked, for no longer than the account allowed (its mark) and `maxAgeMs`. Keyed by the
 * token's access state object: a revocation, a scope or name change, any access change loads a new
 * one, so nothing kept outlives the state it was answered for; the checks before it run on every
 * request as before. The account service stays the only author of the answer.
 * docs/decisions.md, "whoami answered at the gateway".
 */
export class KeptAnswers {
  private readonly kept = new WeakMap<ResolvedToken, KeptAnswer>();

  constructor(private readonly maxAgeMs: number) {}

  get enabled(): boolean {
    return this.maxAgeMs > 0;
  }

  /** Whether this route's answers may be kept: the gate then reads the wallet version too. */
  keepsRoute(def: RouteDef): boolean {
    return this.enabled && def.operationId === KEPT_ROUTE;
  }

  /** A request of a kept route, from now: the moment before its wallet version is read. */
  visit(): KeptVisit {
    return new KeptVisit(this, Date.now());
  }

  /** Answers from what was kept for this token, if it still holds; false when the request must go to the account. */
  give(res: ServerResponse, token: ResolvedToken, walletVersion: string): boolean {
    const kept = this.kept.get(token);
    if (!kept || !keptAnswerHolds(kept, walletVersion, Date.now())) return false;
    res.writeHead(200, kept.headers);
    res.end(kept.body);
    return true;
  }

  /** Keeps the account's answer for this token, if it is keepable until later than `askedAt` (the mark). */
  keep(
    token: ResolvedToken,
    walletVersion: string,
    askedAt: number,
    mark: string | undefined,
    headers: OutgoingHttpHeaders,
    body: Buffer,
  ): void {
    const until = keptUntil(mark, askedAt, this.maxAgeMs, 0.5 + Math.random() / 2);
    if (until === null || body.length > MAX_KEPT_BYTES) return;
    const { date: _date, ...rest } = headers;
    this.kept.set(token, { walletVersion, until, headers: rest, body });
  }
}

/** What forwarding carries so the account's answer can be kept: the version header, and the tap that keeps it. */
export interface KeptForward {
  internal: Record<string, string>;
  tap: AnswerTap;
}

/** One request of the kept route. */
export class KeptVisit {
  constructor(
    private readonly kept: KeptAnswers,
    private readonly askedAt: number,
  ) {}

  /**
   * After every check: answers from what was kept (true), or says how to forward so the answer can
   * be kept. Only the plain request (no query, no body, not replay-only) is: a query or a body is the
   * account's to refuse. Null: forwarded as any other request (no wallet version was read).
   */
  answer(
    req: IncomingMessage,
    res: ServerResponse,
    token: ResolvedToken,
    walletVersion: string | null,
    plain: boolean,
  ): true | KeptForward | null {
    if (walletVersion === null || !plain || !ReadPipelines.takes(req)) return null;
    if (this.kept.give(res, token, walletVersion)) return true;
    // The account marks its answer keepable only under the version read here.
    const tap = new KeepingTap(this.kept, token, walletVersion, this.askedAt);
    return { internal: { [WALLET_VERSION_HEADER]: walletVersion }, tap };
  }
}

/** Gathers an answer its service marked keepable (200 with KEPT_UNTIL_HEADER) as it passes to the client. */
class KeepingTap implements AnswerTap {
  private mark: string | undefined;
  private headersSent: OutgoingHttpHeaders = {};
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(
    private readonly kept: KeptAnswers,
    private readonly token: ResolvedToken,
    private readonly walletVersion: string,
    private readonly askedAt: number,
  ) {}

  headers(status: number, headers: OutgoingHttpHeaders, internal: Record<string, string>): boolean {
    this.mark = internal[KEPT_UNTIL_HEADER];
    this.headersSent = headers;
    return status === 200 && this.mark !== undefined;
  }

  data(chunk: Buffer): void {
    if (this.bytes > MAX_KEPT_BYTES) return;
    this.chunks.push(Buffer.from(chunk));
    this.bytes += chunk.length;
  }

  end(): void {
    if (this.bytes > MAX_KEPT_BYTES) return;
    const body = Buffer.concat(this.chunks);
    this.kept.keep(this.token, this.walletVersion, this.askedAt, this.mark, this.headersSent, body);
  }
}
