import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { refusedBy, request } from '@mm/bus';
import { BUS, type AskRecordingInput } from '@mm/contract';
import { hasScope, readIdempotencyKey, replayOnlyRefusal, type Principal } from '@mm/http';
import { ApiError, claimKey, newId, replayOf, type ClaimStore } from '@mm/platform';
import { finishAnswer } from '../domain/answer';
import type { AskRepository, Target } from '../db/ask.repository';
import type { AskRow } from '../db/schema';
import type { AskEngine } from '../engines/engine';
import type { AskContext, ContextLoader } from './context';

export const MEETING_MAX_CITATIONS = 3;
export const SERIES_MAX_CITATIONS = 5;
/** Earlier questions and answers on the same meeting or series given to the engine. */
const HISTORY = 3;
/**
 * A claim older than this belongs to a request that died (or is slow); a retry with its key takes
 * it over under a new attempt. Safe even if the first is alive: both use the same Ask id, which is
 * the wallet's reference, so the Ask is charged once; the replaced attempt can neither release the
 * claim nor save its answer.
 */
const CLAIM_STALE_MS = 30_000;
/** How long a repeat waits for the first request with its key to finish. */
const WAIT_FOR_FIRST_MS = 30_000;

/** The body of askRecording and askSeries, as the contract's schema has it once validated. */
export type AskBody = AskRecordingInput['body'];

export interface AskAnswer {
  schemaVersion: 1;
  answer: string;
  citations: { startMs: number; speaker: string | null; recordingId?: string }[];
  minutes: number;
  refused: boolean;
}

/** Quotes and Asks, on one meeting or on a series. */
export class AskService {
  constructor(
    private readonly deps: {
      repo: AskRepository;
      context: ContextLoader;
      engine: AskEngine;
      nc: NatsConnection;
      logger: Logger;
    },
  ) {}

  async quoteRecording(p: Principal, recordingId: string): Promise<{ minutes: number }> {
    if (!p.features.ask) throw new ApiError('ASK_DISABLED', 'Ask is switched off for now.');
    return this.deps.context.quoteMeeting(p, recordingId);
  }

  async quoteSeries(p: Principal, seriesId: string): Promise<{ minutes: number; meetingCount: number }> {
    // While Ask is off the series quote answers 404, not ASK_DISABLED (contract).
    if (!p.features.ask) throw new ApiError('NOT_FOUND', 'No series the token can reach has that id.');
    return this.deps.context.quoteSeries(p, seriesId);
  }

  /**
   * The Ask tab of the app: the person's earlier questions and answers on a meeting or series,
   * newest first (the latest of them are what the next question reads as context). 404 unless
   * the person can still reach it.
   */
  async earlier(
    p: Principal,
    target: Target,
    limit = 20,
  ): Promise<{ id: string; question: string; answer: AskAnswer; askedAt: string }[]> {
    await this.deps.context.reach(p, target);
    const rows = await this.deps.repo.answeredOf(p.accountId, target, limit);
    return rows.map((r) => ({
      id: r.id,
      question: r.question,
      answer: r.answer as AskAnswer,
      askedAt: r.createdAt.toISOString(),
    }));
  }

  askRecording(p: Principal, recordingId: string, body: AskBody, headerKey: unknown): Promise<AskAnswer> {
    return this.ask(p, { kind: 'recording', id: recordingId }, body, headerKey);
  }

  askSeries(p: Principal, seriesId: string, body: AskBody, headerKey: unknown): Promise<AskAnswer> {
    return this.ask(p, { kind: 'series', id: seriesId }, body, headerKey);
  }

  /**
   * Over the rate budget (`retryAfter`: the gateway's Retry-After): the first answer for this
   * token's key (`sentKey`: the header's, else the body's), else 429 RATE_LIMITED. Nothing else of
   * the body is read.
   */
  async replayOnly(p: Principal, target: Target, sentKey: unknown, retryAfter: string): Promise<AskAnswer> {
    const key = typeof sentKey === 'string' ? sentKey.trim() : '';
    const first = key ? await replayOf(this.keyOf(p, target, key)) : null;
    if (!first) replayOnlyRefusal(retryAfter);
    await this.deps.context.reach(p, target);
    return first.answer as AskAnswer;
  }

  private async ask(p: Principal, target: Target, body: AskBody, headerKey: unknown): Promise<AskAnswer> {
    // Every series is 404 while series are switched off, before anything else is said of it.
    if (target.kind === 'series' && !p.features.series)
      throw new ApiError('NOT_FOUND', 'No series the token can reach has that id.');
    if (!p.features.ask) throw new ApiError('ASK_DISABLED', 'Ask is switched off for now.');
    // The Idempotency-Key header wins over the body's idempotencyKey.
    const key = readIdempotencyKey(headerKey ?? body.idempotencyKey);
    const question = body.question.trim();
    // Which request holds the claim: this one's attempt, also when it takes over a stale claim.
    const attempt = newId('att');
    let takenOver: AskRow | null = null;
    if (key) {
      const first = await this.firstWithKey(p, target, key, attempt);
      if (first && first.state === 'answered') {
        await this.deps.context.reach(p, target);
        return first.answer as AskAnswer;
      }
      takenOver = first;
    }
    const context =
      target.kind === 'recording'
        ? await this.deps.context.meeting(p, target.id)
        : await this.deps.context.series(p, target.id);
    if (body.maxMinutes !== undefined && context.minutes > body.maxMinutes) {
      throw new ApiError(
        'PRICE_ABOVE_MAX',
        `The price, ${context.minutes} minutes, is above maxMinutes; nothing was charged.`,
        { minutes: context.minutes, maxMinutes: body.maxMinutes },
      );
    }
    let id = takenOver?.id;
    if (!id) {
      id = newId('ask');
      if (
        !(await this.deps.repo.claim({
          id,
          attempt,
          accountId: p.accountId,
          tokenId: p.tokenId,
          target,
          key,
          question,
          minutes: context.minutes,
        }))
      ) {
        // Another request with the same key got in first: answer as a repeat of it.
        return this.ask(p, target, body, headerKey);
      }
    }
    let chargeSent = false;
    try {
      // Refused for money before the engine runs (the charge after it checks again).
      await this.charge(p, id, context.minutes, { dryRun: true });
      const answer = await this.answer(p, target, question, context);
      chargeSent = true;
      await this.charge(p, id, context.minutes);
      // false: a retry took the claim over meanwhile; it answers under the same id and charge.
      await this.deps.repo.answered(id, attempt, answer);
      return answer;
    } catch (err) {
      const refused = err instanceof ApiError && (BUS.walletCharge.refusals as readonly string[]).includes(err.code);
      if (chargeSent && !refused) {
        // The wallet may have charged (or did, and saving the answer failed): keep the claim, so
        // a retry with the same key takes it over with the same Ask id and is not charged twice.
        this.deps.logger.error({ err, askId: id }, 'ask failed after its charge was sent');
        throw err instanceof ApiError
          ? err
          : new ApiError(
              'INTERNAL',
              'The answer could not be saved; retry with the same key (it is not charged twice).',
            );
      }
      await this.deps.repo
        .release(id, attempt)
        .catch((e: unknown) => this.deps.logger.error({ err: e, askId: id }, 'could not release an Ask claim'));
      throw err;
    }
  }

  /**
   * The first Ask with this key, once it is answered, or null when there is none (or it failed).
   * Another token's key is 409; a first request still running is waited for; one whose request
   * died is taken over (returned in state 'answering').
   */
  private async firstWithKey(p: Principal, target: Target, key: string, attempt: string): Promise<AskRow | null> {
    const first = await claimKey(
      {
        ...this.keyOf(p, target, key),
        takeOver: async (row) => ((await this.deps.repo.takeOver(row.id, attempt, CLAIM_STALE_MS)) ? 'taken' : false),
      },
      {
        inUseMessage: 'This Idempotency-Key was already used by another token or the app.',
        busy: () =>
          new ApiError(
            'INTERNAL',
            'The first request with this Idempotency-Key is still running; retry with the same key.',
          ),
        wait: { ms: WAIT_FOR_FIRST_MS, pollMs: 100 },
      },
    );
    if (first.kind === 'replay') return first.row;
    if (first.kind === 'taken') return { ...first.row, attempt };
    return null;
  }

  /** A person's key on a meeting or series in the asks table, as the shared protocol (libs/platform) reads it. */
  private keyOf(p: Principal, target: Target, key: string): Pick<ClaimStore<AskRow>, 'find' | 'sameCaller' | 'done'> {
    return {
      find: () => this.deps.repo.byKey(p.accountId, target, key),
      sameCaller: (row) => row.tokenId === p.tokenId,
      done: (row) => row.state === 'answered',
    };
  }

  private async answer(p: Principal, target: Target, question: string, context: AskContext): Promise<AskAnswer> {
    const series = target.kind === 'series';
    const maxCitations = series ? SERIES_MAX_CITATIONS : MEETING_MAX_CITATIONS;
    const history = await this.deps.repo.history(p.accountId, target, HISTORY);
    let draft;
    try {
      draft = await this.deps.engine.answer(
        { question, turns: context.turns, maxCitations, series, history },
        context.documents,
      );
    } catch (err) {
      this.deps.logger.warn({ err: String(err) }, 'ask engine failed');
      throw new ApiError('GENERATE_FAILED', 'The model could not answer; nothing was charged.');
    }
    const done = finishAnswer(draft, context.turns, maxCitations, series);
    if (!done.ok) {
      this.deps.logger.warn({ reason: done.reason }, 'ask answer rejected');
      throw new ApiError('GENERATE_FAILED', 'The model could not answer from real turns; nothing was charged.');
    }
    return {
      schemaVersion: 1,
      answer: done.answer,
      citations: done.citations,
      minutes: context.minutes,
      refused: done.refused,
    };
  }

  private async charge(p: Principal, askId: string, minutes: number, opts: { dryRun?: true } = {}): Promise<void> {
    try {
      await request(
        this.deps.nc,
        BUS.walletCharge,
        {
          accountId: p.accountId,
          reference: askId,
          minutes,
          tokenId: p.tokenId,
          dailyMinuteCap: p.dailyMinuteCap,
          showBalance: p.source === 'app' || hasScope(p, 'account:read'),
          ...opts,
        },
        { timeoutMs: 10_000 },
      );
    } catch (err) {
      if (refusedBy(BUS.walletCharge, err)) throw new ApiError(err.code, err.message, err.details, err.headers);
      throw new ApiError('INTERNAL', 'The wallet did not answer; retry with the same key.');
    }
  }
}
