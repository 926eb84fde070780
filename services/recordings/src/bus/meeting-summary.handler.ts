import type { Kysely } from 'kysely';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serve } from '@mm/bus';
import { BUS, type MeetingSummary } from '@mm/contract';
import { ApiError, type Principal } from '@mm/http';
import type { Database } from '../db/schema';
import type { Repositories } from '../usecases/context';
import type { MeetingAccess } from '../services/access';
import { digestCreatedFact } from '../domain/digest-created';

/**
 * `meetingSummary` {recordingId} → the READY meeting's digest as the signed caller reaches it (its
 * own, or one of a joined series: NOT_FOUND otherwise; NOT_READY before its digest), with the
 * series it is in and the caller's access: what the app's "email the summary" sends.
 */
export async function meetingSummary(
  db: Kysely<Database>,
  repos: Repositories,
  access: MeetingAccess,
  p: Principal,
  recordingId: string,
): Promise<MeetingSummary> {
  const { r, access: role } = await access.readable(p, await repos.recordings.get(db, recordingId));
  if (r.status !== 'READY') throw new ApiError('NOT_READY', 'The meeting is not ready yet.');
  const [t, d] = await Promise.all([repos.transcripts.get(db, r.id), repos.digests.get(db, r.id)]);
  if (!t || !d) throw new ApiError('NOT_READY', 'The meeting has no digest yet.');
  // The same words as the first digest's email: today's names and title.
  const fact = digestCreatedFact(r, d, t.speakers as { label: string; name: string | null }[]);
  return {
    recordingId: r.id,
    displayTitle: fact.displayTitle,
    language: fact.language,
    sections: fact.sections,
    speakers: fact.speakers,
    recordedAt: fact.recordedAt,
    seriesId: p.features.series ? r.seriesId : null,
    access: role,
  };
}

export function serveMeetingSummary(
  nc: NatsConnection,
  db: Kysely<Database>,
  repos: Repositories,
  access: MeetingAccess,
  logger: Logger,
): Subscription {
  return serve(
    nc,
    BUS.meetingSummary,
    (q, { principal }) => meetingSummary(db, repos, access, principal!, q.recordingId),
    (err) => logger.error({ err }, `${BUS.meetingSummary.name} failed`),
  );
}
