import type { Backend } from './backend.client';
import { BackendError } from './backend.client';

/** A meeting not READY (in progress or failed), as the meetings list shows it. */
export interface UnfinishedMeeting {
  id: string;
  status: string;
  title: string | null;
  seriesId: string | null;
}

interface FeedEvent {
  type: string;
  recordingId: string;
  seriesId: string | null;
  data: { status?: string };
}

/** Pages of the feed read per list (500 events each): the last 30 days of a busy account. */
const MAX_PAGES = 6;
/** Unfinished meetings shown at most. */
const MAX_SHOWN = 30;

/**
 * The account's meetings that are not READY: the list route gives finished meetings only, so the
 * app reads the events feed (every meeting of the account, the 30 days it keeps) for the meetings
 * whose last event leaves them unfinished, then asks each one's status (the feed sends nothing
 * at QUEUED, TRANSCRIBING or GENERATING). Deleted meetings answer 404 and are left out.
 */
export async function unfinishedMeetings(backend: Backend, principal: string): Promise<UnfinishedMeeting[]> {
  const last = new Map<string, FeedEvent>();
  let after: string | null = null;
  for (let i = 0; i < MAX_PAGES; i++) {
    const page: { events: FeedEvent[]; nextCursor: string } = await backend.operation('listEvents', principal, {
      query: { limit: 500, ...(after ? { after } : {}) },
    });
    for (const e of page.events) {
      last.delete(e.recordingId);
      last.set(e.recordingId, e);
    }
    after = page.nextCursor;
    if (page.events.length < 500) break;
  }
  const open = [...last.values()]
    .filter((e) => e.type !== 'recording.deleted' && e.data.status !== 'READY')
    .reverse()
    .slice(0, MAX_SHOWN);
  const found = await Promise.all(
    open.map((e) =>
      backend.operation('getRecordingStatus', principal, { params: { id: e.recordingId } }).then(
        (s): UnfinishedMeeting => ({ id: s.id, status: s.status, title: s.title, seriesId: e.seriesId }),
        (err: unknown) => {
          if (err instanceof BackendError && err.status === 404) return null;
          throw err;
        },
      ),
    ),
  );
  return found.filter((x): x is UnfinishedMeeting => x !== null && x.status !== 'READY');
}
