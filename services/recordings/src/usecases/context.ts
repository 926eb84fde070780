import type { Kysely } from 'kysely';
import type { NatsConnection } from 'nats';
import type { Logger } from 'pino';
import { request, type RequestOptions } from '@mm/bus';
import type { RequestEntry } from '@mm/contract';
import type { ObjectStore } from '@mm/store';
import type { Database } from '../db/schema';
import { RecordingRepository } from '../db/recordings.repository';
import { TranscriptRepository } from '../db/transcripts.repository';
import { DigestRepository } from '../db/digests.repository';
import { ClaimRepository } from '../db/claims.repository';
import { SearchRepository } from '../db/search.repository';
import { BundleRepository } from '../db/bundles.repository';
import { SeriesOwnerRepository } from '../db/series-owners.repository';

/** A request to another service over the bus (the wallet, settings, series, memory notes). */
export type BusCall = <P, R>(entry: RequestEntry<P, R>, payload: P, opts?: RequestOptions) => Promise<R>;

/** The bus requests of a connection. */
export const busCall =
  (nc: NatsConnection): BusCall =>
  (entry, payload, opts) =>
    request(nc, entry, payload, opts);

export interface Repositories {
  recordings: RecordingRepository;
  transcripts: TranscriptRepository;
  digests: DigestRepository;
  claims: ClaimRepository;
  search: SearchRepository;
  bundles: BundleRepository;
  seriesOwners: SeriesOwnerRepository;
}

export const repositoriesOf = (db: Kysely<Database>): Repositories => ({
  recordings: new RecordingRepository(db),
  transcripts: new TranscriptRepository(),
  digests: new DigestRepository(),
  claims: new ClaimRepository(),
  search: new SearchRepository(),
  bundles: new BundleRepository(),
  seriesOwners: new SeriesOwnerRepository(),
});

/**
 * What every use case works with: the database (through the repositories, a transaction through
 * db/transaction), the bus and the store (never inside a transaction), a logger.
 */
export interface UseCaseContext {
  db: Kysely<Database>;
  repos: Repositories;
  call: BusCall;
  store: ObjectStore;
  logger: Logger;
}
