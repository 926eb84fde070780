import { Router } from 'express';
import { ANSWERED, ApiError, appPrincipalOnly, mountOperation, principalOf, type Principal } from '@mm/http';
import { publicSegment, type TranscriptSegment } from '@mm/contract';
import type { ObjectStore } from '@mm/store';
import type { RecordingRow } from '../db/schema';
import type { Repositories, UseCaseContext } from '../usecases/context';
import type { Views } from '../services/views';
import type { Naming } from '../usecases/naming';
import { suggestNames } from '../domain/lifecycle';
import { sniffMedia } from '../domain/sniff';
import { purgeAtOf } from '../services/trash-purger';
import type { SearchService } from '../services/search.service';

/** Clips per voice on the naming sheet, and how long each plays at most. */
const CLIPS_PER_VOICE = 3;
const CLIP_MAX_MS = 8_000;
/** The most an open-ended range answers at once (the gateway and the app hold one answer in memory). */
export const OPEN_RANGE_BYTES = 4 * 1024 * 1024;

const AUDIO_TYPES: Record<string, string> = {
  wav: 'audio/wav',
  aiff: 'audio/aiff',
  mp3: 'audio/mpeg',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  flac: 'audio/flac',
  amr: 'audio/amr',
  mp4: 'audio/mp4',
  matroska: 'audio/webm',
};

/**
 * A voice's clips: its longest turns (two to three seconds or more say most about a voice), in
 * the order they were spoken, each cut to CLIP_MAX_MS.
 */
export function clipsOf(segments: TranscriptSegment[], label: string): { startMs: number; endMs: number }[] {
  return segments
    .filter((s) => s.speaker === label)
    .sort((a, b) => b.endMs - b.startMs - (a.endMs - a.startMs))
    .slice(0, CLIPS_PER_VOICE)
    .sort((a, b) => a.startMs - b.startMs)
    .map((s) => ({ startMs: s.startMs, endMs: Math.min(s.endMs, s.startMs + CLIP_MAX_MS) }));
}

/**
 * An inclusive byte range from a Range header over a file of `size` bytes: null for the whole
 * file (no header, or one we do not read), 'unsatisfiable' outside the file (416).
 */
export function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'unsatisfiable' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  // An open end (a player's `bytes=0-`) gets at most OPEN_RANGE_BYTES: the player asks on.
  const end = Math.min(m[2] === '' ? start + OPEN_RANGE_BYTES - 1 : Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/**
 * What the app's meeting page and naming sheet read that the public API does not hand out:
 * the transcript before READY (the naming sheet's voices and clips) and the meeting's audio.
 * Owner only, through an app principal (as the admin routes): another account's meeting is 404.
 */
export function appMeetingRoutes(deps: {
  db: UseCaseContext['db'];
  repos: Repositories;
  store: ObjectStore;
  views: Views;
  naming: Naming;
  trashDays: number;
  search: SearchService;
}): Router {
  const router = Router();
  const guards = [appPrincipalOnly];

  // Opening the naming sheet moves naming.deadline later (contract: "It can move later when the
  // person opens the naming sheet").
  mountOperation(
    router,
    'appOpenNamingSheet',
    async ({ params }, { res }) => {
      const { row, moved } = await deps.naming.openSheet(principalOf(res), params.id);
      const status = deps.views.status(row);
      return { id: row.id, status: row.status, naming: status.naming, deadlineMoved: moved };
    },
    { guards },
  );
  mountOperation(
    router,
    'appMergeVoices',
    async ({ params, body }, { res }) => {
      const { row, speakers } = await deps.naming.mergeVoices(principalOf(res), params.id, body.from, body.into);
      return { id: row.id, status: row.status, speakers };
    },
    { guards },
  );

  // The trash page: the account's deleted meetings, newest deletion first (restore is the admin route's).
  mountOperation(
    router,
    'appListTrash',
    async (_input, { res }) => {
      const rows = await deps.repos.recordings.trashOf(deps.db, principalOf(res).accountId);
      return {
        trashDays: deps.trashDays,
        items: rows.map((r) => ({
          id: r.id,
          title: r.title,
          status: r.status,
          kind: r.kind,
          recordedAt: r.recordedAt.toISOString(),
          deletedAt: r.deletedAt.toISOString(),
          purgeAt: purgeAtOf(r.deletedAt, deps.trashDays).toISOString(),
        })),
      };
    },
    { guards: [appPrincipalOnly] },
  );

  // The app's meetings search: the public search (same scope, words and normalisation), each item
  // also saying where its snippet was said (`atMs`), so the list opens the meeting at that moment.
  mountOperation(
    router,
    'appSearchMeetings',
    async ({ query }, { res }) => deps.search.search(principalOf(res), query, { moments: true }),
    { guards },
  );
  const owned = async (p: Principal, id: string): Promise<RecordingRow> => {
    if (p.source !== 'app') throw new ApiError('TOKEN_NOT_ACCEPTED', 'This route does not take API tokens.');
    const r = await deps.repos.recordings.get(deps.db, id);
    if (!r || r.deletedAt || r.accountId !== p.accountId) throw new ApiError('NOT_FOUND', 'No such meeting.');
    return r;
  };

  mountOperation(router, 'appGetMeetingSheet', async ({ params }, { res }) => {
    const r = await owned(principalOf(res), params.id);
    const t = await deps.repos.transcripts.get(deps.db, r.id);
    const speakers = t?.speakers ?? [];
    const segments = (t?.segments ?? []).map(publicSegment);
    const suggested = suggestNames(segments);
    const knownNames = await deps.repos.transcripts.speakerNames(deps.db, r.accountId, r.id);
    return {
      recording: {
        ...deps.views.status(r),
        recordedAt: r.recordedAt.toISOString(),
        durationSeconds: r.durationMs === null ? null : Math.round(r.durationMs / 1000),
        kind: r.kind,
      },
      voices: t
        ? speakers.map((s) => ({
            label: s.label,
            name: s.name,
            suggestion: suggested[s.label] ?? null,
            clips: clipsOf(segments, s.label),
          }))
        : [],
      segments,
      knownNames,
      // A store that cannot say (a failure, not "no such object"): the player is offered, and says so itself.
      audio: await deps.store.exists(r.audioKey).catch(() => true),
    };
  });

  mountOperation(router, 'appGetMeetingAudio', async ({ params, headers }, { req, res }) => {
    const r = await owned(principalOf(res), params.id);
    let size: number;
    try {
      size = await deps.store.size(r.audioKey);
    } catch {
      // The owner chose to delete audio after the digest (or it is gone): nothing to play.
      throw new ApiError('NOT_FOUND', 'This meeting keeps no audio.');
    }
    const head = await new Promise<Buffer>((resolve, reject) => {
      const chunks: Buffer[] = [];
      deps.store
        .read(r.audioKey, { start: 0, end: Math.min(63, size - 1) })
        .on('data', (c: Buffer) => chunks.push(c))
        .on('end', () => resolve(Buffer.concat(chunks)))
        .on('error', reject);
    });
    const range = byteRange(headers.range, size);
    res.setHeader('Accept-Ranges', 'bytes');
    res.setHeader('Content-Type', AUDIO_TYPES[sniffMedia(head)?.format ?? ''] ?? 'application/octet-stream');
    res.setHeader('Cache-Control', 'private, no-store');
    if (range === 'unsatisfiable') {
      res.setHeader('Content-Range', `bytes */${size}`);
      res.status(416).end();
      return ANSWERED;
    }
    const { start, end } = range ?? { start: 0, end: size - 1 };
    res.status(range ? 206 : 200);
    if (range) res.setHeader('Content-Range', `bytes ${start}-${end}/${size}`);
    res.setHeader('Content-Length', String(end - start + 1));
    if (req.method === 'HEAD') {
      res.end();
      return ANSWERED;
    }
    const body = deps.store.read(r.audioKey, { start, end });
    body.on('error', () => res.destroy());
    body.pipe(res);
    return ANSWERED;
  });
  return router;
}
