import { ApiError, type Principal } from '@mm/http';
import type { Speaker } from '../db/transcripts.repository';
import { inTransaction } from '../db/transaction';
import type { MeetingAccess } from '../services/access';
import type { UseCaseContext } from './context';
import type { DigestUseCase } from './digest';
import { changeOwned, peekOwned } from './owner';
import { newId } from '@mm/http';
import { mergeVoice } from '../domain/voices';

/** A reload of the sheet within this leaves the deadline alone (no new timer per reload). */
const SHEET_REOPEN_SLACK_MS = 60_000;

export interface NamingSheetTimes {
  /** Opening the sheet leaves the person at least this long before the deadline (NAMING_SHEET_OPEN_SECONDS). */
  sheetOpenSeconds: number;
}

/** The naming step: a person names the voices or skips, or the deadline passes. */
export class Naming {
  constructor(
    private readonly ctx: UseCaseContext,
    private readonly digest: DigestUseCase,
    private readonly access: MeetingAccess,
    private readonly times: NamingSheetTimes = { sheetOpenSeconds: 900 },
  ) {}

  /**
   * The owner opened the naming sheet: at NAMING with a deadline, the deadline moves to
   * `sheetOpenSeconds` from now when that is later (by more than a minute), never earlier; a new timer carries the new
   * deadline as its ref, so the old timer fires into nothing. No deadline (FORCE_ON without end),
   * or any other status: unchanged. No event (the status stays NAMING).
   */
  async openSheet(p: Principal, id: string) {
    const { repos } = this.ctx;
    let moved = false;
    const row = await changeOwned(this.ctx, p, id, async (r, trx) => {
      if (r.status !== 'NAMING' || !r.namingDeadline) return { row: r };
      const grace = this.times.sheetOpenSeconds * 1000;
      const later = new Date(Date.now() + grace);
      // A sheet opened again within a minute (a reload) leaves the deadline and its timer as they are.
      if (later.getTime() - Math.min(SHEET_REOPEN_SLACK_MS, grace / 2) <= r.namingDeadline.getTime()) return { row: r };
      const next = await repos.recordings.update(trx, r.id, { namingDeadline: later });
      await repos.recordings.requestTimer(trx, {
        timerId: newId('tmr'),
        recordingId: r.id,
        kind: 'naming_deadline',
        runAt: later.toISOString(),
        ref: later.toISOString(),
      });
      moved = true;
      return { row: next };
    });
    return { row, moved };
  }

  /**
   * "These two voices are one person" (the naming sheet, at NAMING): `from`'s turns become
   * `into`'s in the stored transcript, which the digest, the bundle and Ask then read. The meeting
   * stays at NAMING (the person names the voices next); nothing is announced.
   */
  async mergeVoices(p: Principal, id: string, from: string, into: string) {
    const { repos } = this.ctx;
    if (from === into) throw new ApiError('VALIDATION', 'Two different voices are needed.');
    let speakers: Speaker[] = [];
    const row = await changeOwned(this.ctx, p, id, async (r, trx) => {
      if (r.status !== 'NAMING') throw new ApiError('NOT_NAMING', 'Voices can be merged only at NAMING.');
      const t = await repos.transcripts.get(trx, r.id);
      if (!t) throw new Error(`meeting ${r.id} has no transcript`);
      const labels = new Set(t.speakers.map((s) => s.label));
      if (!labels.has(from) || !labels.has(into)) throw new ApiError('VALIDATION', 'No such voice in this meeting.');
      const merged = mergeVoice(t, from, into);
      await repos.transcripts.replace(trx, r.id, merged);
      speakers = merged.speakers;
      return { row: r };
    });
    return { row, speakers };
  }

  /** NAMING → GENERATING by the token's own request; unnamed voices take the service's suggestions. */
  async skip(p: Principal, id: string) {
    const { db, repos } = this.ctx;
    return this.digest.run(
      async () => {
        const r = await repos.recordings.get(db, id);
        return r && this.access.own(p, r).status === 'NAMING' ? this.digest.prepare(r, { suggest: true }) : null;
      },
      (plan) =>
        inTransaction(db, async (trx) => {
          const cur = this.access.own(p, await repos.recordings.get(trx, id, { forUpdate: true }));
          if (cur.status !== 'NAMING') throw new ApiError('NOT_NAMING', 'The meeting is not at NAMING.');
          return this.digest.commit(trx, plan);
        }),
    );
  }

  /** The naming deadline passed (a timer): the meeting goes on with the suggestions. */
  async deadline(m: { recordingId: string; ref: string }): Promise<void> {
    const { db, repos } = this.ctx;
    const waiting = (r: { status: string; namingDeadline: Date | null } | undefined) =>
      !!r && r.status === 'NAMING' && !!r.namingDeadline && r.namingDeadline.toISOString() === m.ref;
    await this.digest.run(
      async () => {
        const r = await repos.recordings.get(db, m.recordingId);
        return r && waiting(r) ? this.digest.prepare(r, { suggest: true }) : null;
      },
      (plan) =>
        inTransaction(db, async (trx) => {
          const r = await repos.recordings.get(trx, m.recordingId, { forUpdate: true });
          if (!r || !waiting(r)) return;
          await this.digest.commit(trx, plan);
        }),
    );
  }

  /**
   * The naming sheet (the app): names voices at NAMING, which lets the meeting go on (sent, changed
   * or not), or at READY, which announces speakers_renamed when a name changed.
   */
  async nameSpeakers(p: Principal, id: string, names: Record<string, string>) {
    const { repos } = this.ctx;
    // A label the meeting does not have names nobody (the sheet may list more voices than were heard).
    const rename = (current: Speaker[]) =>
      current.map((s) =>
        names[s.label] !== undefined ? { ...s, name: names[s.label].replace(/\s+/g, ' ').trim() || null } : s,
      );
    return this.digest.run(
      async () => {
        const r = await peekOwned(this.ctx, p, id);
        return r?.status === 'NAMING' ? this.digest.prepare(r, { rename }) : null;
      },
      (plan) =>
        changeOwned(this.ctx, p, id, async (r, trx) => {
          if (r.status === 'NAMING') return { row: await this.digest.commit(trx, plan) };
          if (r.status !== 'READY') throw new ApiError('NOT_NAMING', 'Speakers can be named at NAMING or READY.');
          const t = await repos.transcripts.get(trx, r.id);
          if (!t) throw new Error(`meeting ${r.id} has no transcript`);
          const speakers = rename(t.speakers);
          const renamed = speakers.some((s, i) => s.name !== t.speakers[i].name);
          if (renamed) await repos.transcripts.setSpeakers(trx, r.id, { speakers, segments: t.segments });
          // Names as they were change nothing: no event, no new price for Ask.
          return { row: r, change: renamed ? 'speakers_renamed' : undefined };
        }),
    );
  }
}
