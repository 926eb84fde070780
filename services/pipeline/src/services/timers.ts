import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { enqueue } from '@mm/bus';
import { BUS, JOB_OF_STEP, type PipelineJob, type TimerRequest } from '@mm/contract';
import type { Database } from '../db/schema';

/** Stores a timer another service asked for (idempotent by its id). */
export async function setTimer(db: Kysely<Database>, t: TimerRequest): Promise<void> {
  await db
    .insertInto('timer')
    .values({
      id: t.timerId,
      kind: t.kind,
      recordingId: t.recordingId,
      runAt: new Date(t.runAt),
      payload: JSON.stringify({ ref: t.ref }),
      firedAt: null,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}

/**
 * Fires due timers. Timers are rows with `run_at`, claimed with FOR UPDATE SKIP LOCKED, so they
 * survive restarts and several replicas never fire one twice. A naming deadline is announced to
 * recordings; an automatic retry puts its job back on the bus.
 */
export function startTimerLoop(db: Kysely<Database>, logger: Logger, intervalMs = 500): { stop: () => Promise<void> } {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      try {
        await db.transaction().execute(async (trx) => {
          const due = await trx
            .selectFrom('timer')
            .selectAll()
            .where('firedAt', 'is', null)
            .where('runAt', '<=', sql<Date>`now()`)
            .orderBy('runAt')
            .limit(50)
            .forUpdate()
            .skipLocked()
            .execute();
          for (const t of due) {
            if (t.kind === 'retry') {
              const job = t.payload as PipelineJob;
              await enqueue(trx, JOB_OF_STEP[job.step], `job:${job.jobId}:a${job.attempt}`, job);
            } else
              await enqueue(trx, BUS.timerFired, `fired:${t.id}`, {
                recordingId: t.recordingId,
                kind: 'naming_deadline',
                ref: String((t.payload as { ref: unknown }).ref),
              });
            await trx.updateTable('timer').set({ firedAt: sql`now()` }).where('id', '=', t.id).execute();
          }
        });
      } catch (err) {
        if (!stopped) logger.error({ err }, 'timer loop failed');
      }
      await new Promise((r) => setTimeout(r, intervalMs));
    }
  })();
  return {
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}
