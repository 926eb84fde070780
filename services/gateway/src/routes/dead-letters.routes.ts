import type { Router } from 'express';
import type { Kysely } from 'kysely';
import { listDeadLetters, readDeadLetter, replayDeadLetter, type Bus } from '@mm/bus';
import { ApiError, mountOperation } from '@mm/http';
import type { Database } from '../db/schema';
import type { ClientAddresses } from '../services/client-addresses';

/**
 * The dead letters, under the admin API (its key checked by the admin router): messages no
 * consumer could handle (malformed, or failed more often than their limit) and outbox rows
 * JetStream refused. `GET /dead-letters?after=&limit=` lists them oldest first; `GET
 * /dead-letters/{seq}` shows one with its payload, who dead-lettered it, where a replay would
 * send it (or why it may not) and the payload's digest; `POST /dead-letters/{seq}/replay` with
 * `{payloadSha256, operator}` sends it back once its cause is fixed (handlers are idempotent),
 * removes it, and records who asks (`GET /dead-letters/replays` lists the record). The shapes
 * are the contract's admin table's.
 */
export function mountDeadLetters(router: Router, bus: Bus, db: Kysely<Database>, addresses: ClientAddresses): void {
  mountOperation(router, 'adminListDeadLetters', async ({ query }) => {
    const { items, total } = await listDeadLetters(bus, { afterSeq: query.after, limit: query.limit });
    return { items, total, nextAfter: items.length ? items[items.length - 1].seq : query.after };
  });
  // Before /dead-letters/{seq}, which would otherwise take "replays" for a sequence (and refuse it).
  mountOperation(router, 'adminListDeadLetterReplays', async () => {
    const items = await db.selectFrom('deadLetterReplay').selectAll().orderBy('id', 'desc').limit(500).execute();
    return {
      items: items.map(({ id: _id, ...r }) => ({ ...r, seq: Number(r.seq), replayedAt: r.replayedAt.toISOString() })),
    };
  });
  mountOperation(router, 'adminReadDeadLetter', async ({ params }) => {
    const letter = await readDeadLetter(bus, Number(params.seq));
    if (!letter) throw new ApiError('NOT_FOUND', 'No dead letter has that sequence.');
    return { letter };
  });
  mountOperation(router, 'adminReplayDeadLetter', async ({ params, body }, { req, res }) => {
    const seq = Number(params.seq);
    const { payloadSha256, operator } = body;
    const address = addresses.of(req);
    // Recorded in the transaction the replay happens in: no replay without its record.
    const outcome = await db.transaction().execute(async (trx) => {
      const done = await replayDeadLetter(bus, seq, payloadSha256);
      if (done?.replayed) {
        await trx
          .insertInto('deadLetterReplay')
          .values({
            seq,
            subject: done.subject,
            deadLetteredBy: done.by,
            payloadSha256,
            askedBy: operator,
            clientAddress: address,
            requestId: String(res.locals.reqId ?? ''),
          })
          .execute();
      }
      return done;
    });
    if (!outcome) throw new ApiError('NOT_FOUND', 'No dead letter has that sequence.');
    if (!outcome.replayed)
      throw new ApiError('VALIDATION', `Not replayed: ${outcome.refusal}.`, {
        refusal: outcome.refusal,
        letter: outcome.letter,
      });
    return { seq, subject: outcome.subject, deadLetteredBy: outcome.by, askedBy: operator, replayed: true as const };
  });
}
