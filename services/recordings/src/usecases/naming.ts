import { ApiError, type Principal } from '@mm/http';
import type { Speaker } from '../db/transcripts.repository';
import { inTransaction } from '../db/transaction';
import type { MeetingAccess } from '../services/access';
import type { UseCaseContext } from './context';
import type { DigestUseCase } from './digest';
import { changeOwned, peekOwned } from './owner';

/** The naming step: a person names the voices or skips, or the deadline passes. */
export class Naming {
  constructor(
    private readonly ctx: UseCaseContext,
    private readonly digest: DigestUseCase,
    private readonly access: MeetingAccess,
  ) {}

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
          if (renamed) await repos.transcripts.setSpeakers(trx, r.id, speakers);
          // Names as they were change nothing: no event, no new price for Ask.
          return { row: r, change: renamed ? 'speakers_renamed' : undefined };
        }),
    );
  }
}
