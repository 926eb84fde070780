import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { ObjectStore } from '@mm/store';
import type { Database } from '../db/schema';
import { MeetingAccess } from '../services/access';
import type { MediaTools } from '../services/media';
import { UploadsInFlight } from '../services/uploads-in-flight';
import { repositoriesOf, type BusCall, type UseCaseContext } from './context';
import { Charges } from './charges';
import { DigestUseCase } from './digest';
import { PipelineResults, type NamingTimes } from './results';
import { Naming, type NamingSheetTimes } from './naming';
import { Retry } from './retry';
import { AdminOps } from './admin';
import { IdempotencyKeys } from './idempotency';
import { SubmitRecording } from './submit';
import { AskQuotes } from './ask-quotes';
import { ASK_PRICING } from '@mm/contract';

export interface UseCaseOptions {
  naming: NamingTimes & Partial<NamingSheetTimes>;
  /** Silent meetings an account may have fail for free in 24 hours (contract: "a few"). */
  freeSilentMeetingsPerDay?: number;
  staleClaimSeconds: number;
  maxRecordingMinutes: number;
  tools: MediaTools;
  /** Characters an Ask reads per minute it costs (ASK_CHARS_PER_MINUTE; the quotes price by it). */
  askCharsPerMinute?: number;
}

/** Every use case of the service, wired once (main.ts, the tests). */
export function createUseCases(
  deps: { db: Kysely<Database>; call: BusCall; store: ObjectStore; logger: Logger; uploads?: UploadsInFlight },
  opts: UseCaseOptions,
) {
  const ctx: UseCaseContext = {
    db: deps.db,
    repos: repositoriesOf(deps.db),
    call: deps.call,
    store: deps.store,
    logger: deps.logger,
  };
  const access = new MeetingAccess(deps.call, deps.db, ctx.repos.seriesOwners);
  const charges = new Charges(ctx);
  const digest = new DigestUseCase(ctx);
  const keys = new IdempotencyKeys(deps.db, ctx.repos.claims, opts.staleClaimSeconds);
  const uploads = deps.uploads ?? new UploadsInFlight();
  return {
    ctx,
    access,
    charges,
    digest,
    keys,
    uploads,
    results: new PipelineResults(ctx, charges, digest, {
      naming: opts.naming,
      freeSilentMeetingsPerDay: opts.freeSilentMeetingsPerDay,
    }),
    naming: new Naming(ctx, digest, access, { sheetOpenSeconds: opts.naming.sheetOpenSeconds ?? 900 }),
    retry: new Retry(ctx, charges, digest, access),
    admin: new AdminOps(ctx, charges, digest),
    askQuotes: new AskQuotes(ctx, access, opts.askCharsPerMinute ?? ASK_PRICING.defaultCharsPerMinute),
    submit: new SubmitRecording(ctx, keys, uploads, {
      maxRecordingMinutes: opts.maxRecordingMinutes,
      tools: opts.tools,
    }),
  };
}

export type UseCases = ReturnType<typeof createUseCases>;
