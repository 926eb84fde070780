import type { Kysely } from 'kysely';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serve } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { Database } from '../db/schema';
import { RecordingRepository } from '../db/recordings.repository';
import { SeriesOwnerRepository } from '../db/series-owners.repository';
import { inTransaction } from '../db/transaction';

/**
 * Answers `seriesChanged`: the series service tells recordings that a series was renamed or
 * restyled, so the copies meetings keep for their titles and list items follow. No meeting event
 * is sent (the contract: changes to a series itself send nothing for its meetings).
 */
export function serveSeriesChanged(nc: NatsConnection, db: Kysely<Database>, logger: Logger): Subscription {
  return serve(
    nc,
    BUS.seriesChanged,
    async (p) => ({ updated: await new RecordingRepository(db).renameSeries(db, p) }),
    (err) => logger.error({ err }, 'seriesChanged failed'),
  );
}

/**
 * Answers `seriesDeleted`: the series service deletes a series, and its meetings (trashed ones
 * too) move out of it, as a meeting never filed in a series. The contract sends nothing for them
 * (changes to a series itself, deletion included, send no meeting event). The copy of its owner is
 * marked deleted in the same transaction, so no read answers from it after. Idempotent.
 */
export function serveSeriesDeleted(nc: NatsConnection, db: Kysely<Database>, logger: Logger): Subscription {
  return serve(
    nc,
    BUS.seriesDeleted,
    async (p) => ({ updated: await seriesDeleted(db, p.seriesId) }),
    (err) => logger.error({ err }, 'seriesDeleted failed'),
  );
}

/** A deleted series, as recordings forgets it: its meetings moved out and its owner's copy marked deleted, in one transaction; how many meetings moved. */
export async function seriesDeleted(db: Kysely<Database>, seriesId: string): Promise<number> {
  return inTransaction(db, async (trx) => {
    await new SeriesOwnerRepository().forget(trx, seriesId);
    return new RecordingRepository(db).leaveSeries(trx, seriesId);
  });
}
