import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { Kysely } from 'kysely';
import { listDeadLetters, readDeadLetter, replayDeadLetter, type Bus } from '@mm/bus';
import { ApiError } from '@mm/http';
import type { Database } from '../db/schema';
import type { ClientAddresses } from '../services/client-addresses';

const seqOf = (raw: unknown, name: string): number => {
  const s = String(raw ?? '');
  if (!/^\d{1,15}$/.test(s)) throw new ApiError('VALIDATION', `${name} must be a whole number`);
  return Number(s);
};

/** The replay body: the payload's digest as read (GET /dead-letters/{seq}), and who asks. */
function replayBody(body: unknown): { payloadSha256: string; operator: string } {
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.payloadSha256 !== 'string' || !/^[0-9a-f]{64}$/.test(b.payloadSha256)) {
    throw new ApiError('VALIDATION', 'payloadSha256 must be the letter\'s payloadSha256 as GET /dead-letters/{seq} shows it: read the payload before replaying it');
  }
  if (typeof b.operator !== 'string' || !/^\S(.{0,98}\S)?$/.test(b.operator)) throw new ApiError('VALIDATION', 'operator must name who asks for the replay (1 to 100 characters)');
  return { payloadSha256: b.payloadSha256, operator: b.operator };
}

/**
 * The dead letters, under the admin API (its key checked by the admin router): messages no
 * consumer could handle (malformed, or failed more often than their limit) and outbox rows
 * JetStream refused. `GET /dead-letters?after=&limit=` lists them oldest first; `GET
 * /dead-letters/{seq}` shows one with its payload, who dead-lettered it, where a replay would
 * send it (or why it may not) and the payload's digest; `POST /dead-letters/{seq}/replay` with
 * `{payloadSha256, operator}` sends it back once its cause is fixed (handlers are idempotent),
 * removes it, and records who asked (`GET /dead-letters/replays` lists the record).
 */
export function deadLettersRouter(bus: Bus, db: Kysely<Database>, addresses: ClientAddresses): Router {
  const router = express.Router();
  const wrap = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => fn(req, res).catch(next);
  router.get('/', wrap(async (req, res) => {
    const afterSeq = req.query.after === undefined ? 0 : seqOf(req.query.after, 'after');
    const limit = req.query.limit === undefined ? 100 : seqOf(req.query.limit, 'limit');
    if (limit < 1 || limit > 500) throw new ApiError('VALIDATION', 'limit must be between 1 and 500');
    const { items, total } = await listDeadLetters(bus, { afterSeq, limit });
    res.json({ items, total, nextAfter: items.length ? items[items.length - 1].seq : afterSeq });
  }));
  router.get('/replays', wrap(async (_req, res) => {
    const items = await db.selectFrom('deadLetterReplay').selectAll().orderBy('id', 'desc').limit(500).execute();
    res.json({ items: items.map(({ id: _id, ...r }) => ({ ...r, seq: Number(r.seq), replayedAt: r.replayedAt.toISOString() })) });
  }));
  router.get('/:seq', wrap(async (req, res) => {
    const letter = await readDeadLetter(bus, seqOf(req.params.seq, 'seq'));
    if (!letter) throw new ApiError('NOT_FOUND', 'No dead letter has that sequence.');
    res.json({ letter });
  }));
  router.post('/:seq/replay', wrap(async (req, res) => {
    const seq = seqOf(req.params.seq, 'seq');
    const { payloadSha256, operator } = replayBody(req.body);
    const address = addresses.of(req);
    // Recorded in the transaction the replay happens in: no replay without its record.
    const outcome = await db.transaction().execute(async (trx) => {
      const done = await replayDeadLetter(bus, seq, payloadSha256);
      if (done?.replayed) {
        await trx
          .insertInto('deadLetterReplay')
          .values({ seq, subject: done.subject, deadLetteredBy: done.by, payloadSha256, askedBy: operator, clientAddress: address, requestId: String(res.locals.reqId ?? '') })
          .execute();
      }
      return done;
    });
    if (!outcome) throw new ApiError('NOT_FOUND', 'No dead letter has that sequence.');
    if (!outcome.replayed) throw new ApiError('VALIDATION', `Not replayed: ${outcome.refusal}.`, { refusal: outcome.refusal, letter: outcome.letter });
    res.json({ seq, subject: outcome.subject, deadLetteredBy: outcome.by, askedBy: operator, replayed: true });
  }));
  return router;
}
