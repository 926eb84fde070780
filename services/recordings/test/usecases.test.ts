import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BUS } from '@mm/contract';
import { ApiError, type Principal } from '@mm/http';
import { toneWav } from '../../../tests/support/media';
import { inTransaction } from '../src/db/transaction';
import type { RecordingRow } from '../src/db/schema';
import { StalePlan } from '../src/usecases/digest';
import { digestDoc, outboxOf, principal, startHarness, transcriptDoc, type Harness } from './support/harness';

/**
 * Each use case against a real database (migrated like production), a file store and an
 * in-memory wallet, settings and series (the fake bus), without HTTP. Every flow also runs under
 * the transaction guard: a bus request or a store call made while a transaction is open fails
 * the file's last test.
 */
let h: Harness;
const scratch = mkdtempSync(path.join(tmpdir(), 'mm-uc-upload-'));
let n = 0;

beforeAll(async () => {
  h = await startHarness();
}, 60_000);
afterAll(async () => {
  await h?.close();
});

const get = async (id: string): Promise<RecordingRow> => (await h.useCases.ctx.repos.recordings.get(h.db, id))!;
/** The search text the write path left (a row as read elsewhere does not carry it). */
const searchTextOf = async (id: string): Promise<string | null> =>
  (await h.db.selectFrom('recording').select('searchText').where('id', '=', id).executeTakeFirstOrThrow()).searchText;

/** Submits a 3-second tone as `p` (a key, when given), as the upload route would. */
async function submit(
  p: Principal,
  key: string | null = null,
  fields: Record<string, string> = {},
): Promise<RecordingRow> {
  const file = path.join(scratch, `audio-${++n}.wav`);
  copyFileSync(toneWav(3), file);
  return h.useCases.submit.handle(p, 'upload', key ?? undefined, {
    check: () => undefined,
    read: async () => ({
      audio: { path: file, mimetype: 'audio/wav', originalname: 'a.wav', size: 96_044 },
      attachment: undefined,
      fields,
    }),
  });
}

/** A meeting moved on by the pipeline to its transcript (FORCE_OFF: straight to GENERATING). */
async function transcribed(p: Principal, doc = transcriptDoc()): Promise<RecordingRow> {
  const r = await submit(p);
  const key = `work/${r.id}/transcript.json`;
  await h.store.putJson(key, doc);
  await h.useCases.results.started({ recordingId: r.id, jobId: r.jobId!, step: 'transcribe' });
  await h.useCases.results.transcribed({ recordingId: r.id, jobId: r.jobId!, transcriptKey: key });
  return get(r.id);
}

async function ready(p: Principal): Promise<RecordingRow> {
  const r = await transcribed(p);
  await h.store.putJson(`work/${r.id}/digest.json`, digestDoc);
  await h.useCases.digest.finish({ recordingId: r.id, jobId: r.jobId!, digestKey: `work/${r.id}/digest.json` });
  return get(r.id);
}

/** The job the meeting asked for last, from the outbox. */
async function lastJob(id: string) {
  const jobs = (await outboxOf(h.db, id)).filter((o) => o.kind.startsWith('job:'));
  return jobs[jobs.length - 1].payload;
}

describe('submit', () => {
  it('holds the price, stores the audio and commits the meeting, its claim, event and first job together', async () => {
    const p = principal();
    const r = await submit(p, 'submit-key-1', { title: 'Weekly' });
    expect(r).toMatchObject({
      status: 'QUEUED',
      accountId: p.accountId,
      title: 'Weekly',
      holdRef: r.id,
      charged: false,
    });
    expect(h.bus.holds.get(r.id)).toMatchObject({ accountId: p.accountId, minutes: r.minutes, closed: null });
    expect(await h.store.size(r.audioKey)).toBeGreaterThan(0);
    expect((await outboxOf(h.db, r.id)).map((o) => o.kind)).toEqual(['recording.created', 'job:transcribe']);
    expect(await h.useCases.ctx.repos.claims.get(h.db, p.accountId, 'submit-key-1')).toMatchObject({
      state: 'done',
      recordingId: r.id,
    });
    // The same key answers the same meeting: no second hold, no second meeting.
    const holds = h.bus.holds.size;
    expect((await submit(p, 'submit-key-1')).id).toBe(r.id);
    expect(h.bus.holds.size).toBe(holds);
  });

  it('leaves nothing behind when the wallet refuses: no meeting, no claim, the key runs again', async () => {
    const p = principal();
    h.bus.refuseHolds = 'INSUFFICIENT_MINUTES';
    try {
      await expect(submit(p, 'submit-key-2')).rejects.toMatchObject({ code: 'INSUFFICIENT_MINUTES' });
    } finally {
      h.bus.refuseHolds = null;
    }
    expect(await h.useCases.ctx.repos.claims.get(h.db, p.accountId, 'submit-key-2')).toBeUndefined();
    const r = await submit(p, 'submit-key-2');
    expect(r.status).toBe('QUEUED');
  });

  it('refuses a key another caller used', async () => {
    const p = principal();
    await submit(p, 'submit-key-3');
    const token = principal(p.accountId, { source: 'token', tokenId: 'tok_1' });
    await expect(submit(token, 'submit-key-3')).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_IN_USE' });
  });
});

describe('pipeline results', () => {
  it('transcript: charged once, the suggested names written, the digest job asked with its transcript file and memory', async () => {
    const p = principal();
    const r = await transcribed(p);
    expect(r).toMatchObject({ status: 'GENERATING', charged: true });
    expect(h.bus.capturedFor(r.id)).toBe(r.minutes);
    const t = await h.useCases.ctx.repos.transcripts.get(h.db, r.id);
    expect(t!.speakers[0]).toEqual({ label: 'S1', name: 'Sara' });
    const job = await lastJob(r.id);
    expect(job).toMatchObject({ step: 'generate', jobId: r.jobId, memory: ['likes short digests'], regenerate: false });
    expect(await h.store.getJson(job.transcriptKey)).toMatchObject({
      speakers: [
        { label: 'S1', name: 'Sara' },
        { label: 'S2', name: null },
      ],
    });
    // A redelivery changes nothing and charges nothing more.
    await h.useCases.results.transcribed({
      recordingId: r.id,
      jobId: job.jobId,
      transcriptKey: `work/${r.id}/transcript.json`,
    });
    expect(h.bus.capturedFor(r.id)).toBe(r.minutes);
  });

  it('digest: READY with its events and the digestCreated fact; a regeneration announces regenerated', async () => {
    const p = principal();
    const r = await ready(p);
    expect(r).toMatchObject({ status: 'READY', readyOnce: true });
    expect(await searchTextOf(r.id)).toContain('friday');
    expect(r).not.toHaveProperty('searchText');
    expect((await outboxOf(h.db, r.id)).map((o) => o.kind).sort()).toEqual([
      'digestCreated',
      'job:generate',
      'job:transcribe',
      'recording.created',
      'recording.ready',
    ]);
    const again = await h.useCases.admin.regenerate(p, r.id);
    expect(again.status).toBe('GENERATING');
    expect(await lastJob(r.id)).toMatchObject({ regenerate: true, jobId: again.jobId });
    await h.useCases.digest.finish({ recordingId: r.id, jobId: again.jobId!, digestKey: `work/${r.id}/digest.json` });
    expect(
      (await outboxOf(h.db, r.id)).filter((o) => o.kind === 'recording.updated').map((o) => o.payload.data.change),
    ).toEqual(['regenerated']);
  });

  it('a transcription failed for good releases the hold; a retry holds again and transcribes', async () => {
    const p = principal();
    const r = await submit(p);
    await h.useCases.results.failed({
      recordingId: r.id,
      jobId: r.jobId!,
      step: 'transcribe',
      code: 'TRANSCRIBE_FAILED',
      final: false,
    });
    expect(await get(r.id)).toMatchObject({ status: 'FAILED', autoRetryPending: true });
    await h.useCases.results.failed({
      recordingId: r.id,
      jobId: r.jobId!,
      step: 'transcribe',
      code: 'TRANSCRIBE_FAILED',
      final: true,
    });
    expect(await get(r.id)).toMatchObject({ status: 'FAILED', autoRetryPending: false });
    expect(h.bus.holds.get(r.id)!.closed).toBe('release');
    const retried = await h.useCases.retry.retry(p, r.id);
    expect(retried).toMatchObject({ status: 'TRANSCRIBING', holdRef: `${r.id}:retry:${retried.jobId}` });
    expect(h.bus.openHolds(r.id)).toEqual([retried.holdRef]);
    expect(await lastJob(r.id)).toMatchObject({ step: 'transcribe', jobId: retried.jobId });
  });

  it('a failed digest is retried with a fresh transcript file, at no new cost', async () => {
    const p = principal();
    const r = await transcribed(p);
    await h.useCases.results.failed({
      recordingId: r.id,
      jobId: r.jobId!,
      step: 'generate',
      code: 'GENERATE_FAILED',
      final: true,
    });
    const retried = await h.useCases.retry.retry(p, r.id);
    expect(retried.status).toBe('GENERATING');
    const job = await lastJob(r.id);
    expect(job.jobId).toBe(retried.jobId);
    expect(await h.store.getJson(job.transcriptKey)).toMatchObject({ language: 'en' });
    expect(h.bus.capturedFor(r.id)).toBe(r.minutes);
  });

  it('silent meetings: the first of the day fails for free, the next is charged and digested empty', async () => {
    const p = principal();
    const first = await submit(p);
    await h.useCases.results.failed({
      recordingId: first.id,
      jobId: first.jobId!,
      step: 'transcribe',
      code: 'NO_SPEECH',
      final: true,
    });
    expect(await get(first.id)).toMatchObject({ status: 'FAILED', errorCode: 'NO_SPEECH', charged: false });
    expect(h.bus.holds.get(first.id)!.closed).toBe('release');
    const second = await submit(p);
    await h.useCases.results.failed({
      recordingId: second.id,
      jobId: second.jobId!,
      step: 'transcribe',
      code: 'NO_SPEECH',
      final: true,
    });
    const after = await get(second.id);
    expect(after).toMatchObject({ status: 'GENERATING', charged: true });
    expect(h.bus.capturedFor(second.id)).toBe(second.minutes);
    expect(await h.useCases.ctx.repos.transcripts.get(h.db, second.id)).toMatchObject({ speakers: [], segments: [] });
    // Redelivered: nothing more.
    await h.useCases.results.failed({
      recordingId: second.id,
      jobId: second.jobId!,
      step: 'transcribe',
      code: 'NO_SPEECH',
      final: true,
    });
    expect(h.bus.capturedFor(second.id)).toBe(second.minutes);
  });
});

describe('naming', () => {
  beforeEach(() => {
    h.bus.namingMode = 'FORCE_ON';
  });
  afterEach(() => {
    h.bus.namingMode = 'FORCE_OFF';
  });

  it('stops at NAMING; the sheet names the voices and the digest starts with those names', async () => {
    const p = principal();
    const r = await transcribed(p);
    expect(r.status).toBe('NAMING');
    expect((await outboxOf(h.db, r.id)).map((o) => o.kind)).toContain('recording.naming_required');
    const next = await h.useCases.naming.nameSpeakers(p, r.id, { S2: '  Omid ' });
    expect(next.status).toBe('GENERATING');
    const job = await lastJob(r.id);
    expect(await h.store.getJson(job.transcriptKey)).toMatchObject({
      speakers: [
        { label: 'S1', name: null },
        { label: 'S2', name: 'Omid' },
      ],
    });
    expect((await h.useCases.ctx.repos.transcripts.get(h.db, r.id))!.speakers[1].name).toBe('Omid');
  });

  it('skip takes the suggestions; another account cannot skip', async () => {
    const p = principal();
    const r = await transcribed(p);
    await expect(h.useCases.naming.skip(principal(), r.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect((await get(r.id)).status).toBe('NAMING');
    const next = await h.useCases.naming.skip(p, r.id);
    expect(next.status).toBe('GENERATING');
    expect((await h.useCases.ctx.repos.transcripts.get(h.db, r.id))!.speakers[0].name).toBe('Sara');
    await expect(h.useCases.naming.skip(p, r.id)).rejects.toMatchObject({ code: 'NOT_NAMING' });
  });

  it('the deadline timer moves on only the meeting still waiting for that deadline', async () => {
    h.bus.namingMode = 'AUTO';
    const p = principal();
    const r = await transcribed(p);
    expect(r.namingDeadline).not.toBeNull();
    await h.useCases.naming.deadline({ recordingId: r.id, ref: new Date(0).toISOString() });
    expect((await get(r.id)).status).toBe('NAMING');
    await h.useCases.naming.deadline({ recordingId: r.id, ref: r.namingDeadline!.toISOString() });
    expect((await get(r.id)).status).toBe('GENERATING');
  });

  it('opening the sheet moves naming.deadline later, never earlier, with a new timer; no end stays no end', async () => {
    h.bus.namingMode = 'AUTO';
    const p = principal();
    const r = await transcribed(p);
    const first = r.namingDeadline!;
    await expect(h.useCases.naming.openSheet(principal(), r.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const before = Date.now();
    const opened = await h.useCases.naming.openSheet(p, r.id);
    expect(opened.moved).toBe(true);
    const moved = (await get(r.id)).namingDeadline!;
    // At least the sheet's 900 s from the opening (the harness's AUTO wait is 60 s).
    expect(moved.getTime()).toBeGreaterThanOrEqual(before + 900_000);
    expect(moved.getTime()).toBeGreaterThan(first.getTime());
    const timers = (await outboxOf(h.db, r.id)).filter((o) => o.kind === 'timer:naming_deadline');
    expect(timers.map((t) => t.payload.ref)).toEqual([first.toISOString(), moved.toISOString()]);
    // The old timer fires into nothing; the new one moves the meeting on.
    await h.useCases.naming.deadline({ recordingId: r.id, ref: first.toISOString() });
    expect((await get(r.id)).status).toBe('NAMING');
    // Opened again at once: the deadline is already that far, so it stays (never earlier).
    expect((await h.useCases.naming.openSheet(p, r.id)).moved).toBe(false);
    expect((await get(r.id)).namingDeadline!.toISOString()).toBe(moved.toISOString());
    await h.useCases.naming.deadline({ recordingId: r.id, ref: moved.toISOString() });
    expect((await get(r.id)).status).toBe('GENERATING');
    // After NAMING: nothing moves.
    expect((await h.useCases.naming.openSheet(p, r.id)).moved).toBe(false);
    // FORCE_ON with no end (the harness's forceOnDeadlineHours is 0): stays null.
    h.bus.namingMode = 'FORCE_ON';
    const endless = await transcribed(p);
    expect(endless.namingDeadline).toBeNull();
    expect((await h.useCases.naming.openSheet(p, endless.id)).moved).toBe(false);
    expect((await get(endless.id)).namingDeadline).toBeNull();
  });

  it('"these two voices are one person": the turns get one speaker, stats count them as one; only at NAMING', async () => {
    const p = principal();
    const doc = transcriptDoc(3);
    doc.stats = {
      speakers: ['S1', 'S2', 'S3'].map((speaker) => ({
        speaker,
        speakerName: null,
        speakingMs: 3500,
        share: 0.333,
        turns: 1,
        questions: speaker === 'S3' ? 1 : 0,
      })),
      totalTurns: 3,
      questions: 1,
      durationMs: 12_000,
    };
    const r = await transcribed(p, doc);
    await expect(h.useCases.naming.mergeVoices(principal(), r.id, 'S3', 'S2')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
    await expect(h.useCases.naming.mergeVoices(p, r.id, 'S2', 'S2')).rejects.toMatchObject({ code: 'VALIDATION' });
    await expect(h.useCases.naming.mergeVoices(p, r.id, 'S9', 'S2')).rejects.toMatchObject({ code: 'VALIDATION' });
    const { row, speakers } = await h.useCases.naming.mergeVoices(p, r.id, 'S3', 'S2');
    expect(row.status).toBe('NAMING');
    expect(speakers.map((s) => s.label)).toEqual(['S1', 'S2']);
    const t = (await h.useCases.ctx.repos.transcripts.get(h.db, r.id))!;
    expect(t.segments.map((s) => s.speaker)).toEqual(['S1', 'S2', 'S2']);
    const stats = t.stats as { speakers: { speaker: string; speakingMs: number; turns: number; questions: number }[] };
    expect(stats.speakers.map((s) => [s.speaker, s.speakingMs, s.turns, s.questions])).toEqual([
      ['S1', 3500, 1, 0],
      ['S2', 7000, 1, 1],
    ]);
    expect(t.stats.totalTurns).toBe(2);
    // Named next: the digest job reads the merged transcript (one speaker for both voices' turns).
    await h.useCases.naming.nameSpeakers(p, r.id, { S1: 'Sara', S2: 'Omid' });
    const job = await lastJob(r.id);
    const sent = await h.store.getJson<{ speakers: unknown[]; segments: { speaker: string }[] }>(job.transcriptKey);
    expect(sent.speakers).toEqual([
      { label: 'S1', name: 'Sara' },
      { label: 'S2', name: 'Omid' },
    ]);
    expect(sent.segments.map((s) => s.speaker)).toEqual(['S1', 'S2', 'S2']);
    await expect(h.useCases.naming.mergeVoices(p, r.id, 'S2', 'S1')).rejects.toMatchObject({ code: 'NOT_NAMING' });
    // The account's other meetings' names are the sheet's suggestions; another account's are not.
    const names = await h.useCases.ctx.repos.transcripts.speakerNames(h.db, p.accountId, 'rec_none');
    expect(names.sort()).toEqual(['Omid', 'Sara']);
    expect(await h.useCases.ctx.repos.transcripts.speakerNames(h.db, p.accountId, r.id)).toEqual([]);
    expect(await h.useCases.ctx.repos.transcripts.speakerNames(h.db, principal().accountId, 'rec_none')).toEqual([]);
  });

  it('names at READY announce speakers_renamed, the same names nothing', async () => {
    h.bus.namingMode = 'FORCE_OFF';
    const p = principal();
    const r = await ready(p);
    const updates = async () =>
      (await outboxOf(h.db, r.id)).filter((o) => o.kind === 'recording.updated').map((o) => o.payload.data.change);
    await h.useCases.naming.nameSpeakers(p, r.id, { S1: 'Sara' });
    expect(await updates()).toEqual([]);
    await h.useCases.naming.nameSpeakers(p, r.id, { S1: 'Sarah' });
    expect(await updates()).toEqual(['speakers_renamed']);
  });
});

describe('admin operations', () => {
  it('delete before the transcript lets the hold go; restore holds again; the transcript then charges once', async () => {
    const p = principal();
    const r = await submit(p);
    expect(await h.useCases.admin.remove(p, r.id)).toEqual({ id: r.id, deleted: true });
    expect(h.bus.holds.get(r.id)!.closed).toBe('release');
    const restored = await h.useCases.admin.restore(p, r.id);
    expect(restored.holdRef).toMatch(new RegExp(`^${r.id}:restore:`));
    const key = `work/${r.id}/transcript.json`;
    await h.store.putJson(key, transcriptDoc());
    await h.useCases.results.transcribed({ recordingId: r.id, jobId: r.jobId!, transcriptKey: key });
    expect(await get(r.id)).toMatchObject({ charged: true, status: 'GENERATING' });
    expect(h.bus.capturedFor(r.id)).toBe(r.minutes);
  });

  it('rename, move to a series, edit a turn; others get NOT_FOUND', async () => {
    const p = principal();
    h.bus.addSeries('ser_1', 'Standup');
    const r = await ready(p);
    await expect(h.useCases.admin.patch(principal(), r.id, { title: 'x' })).rejects.toBeInstanceOf(ApiError);
    const renamed = await h.useCases.admin.patch(p, r.id, { title: '  Kickoff  ', seriesId: 'ser_1' });
    expect(renamed).toMatchObject({ title: 'Kickoff', seriesId: 'ser_1', seriesName: 'Standup' });
    await h.useCases.admin.editSegment(p, r.id, 1, 'We ship on Thursday instead.');
    expect(await searchTextOf(r.id)).toContain('thursday');
    await expect(h.useCases.admin.editSegment(p, r.id, 9, 'x')).rejects.toMatchObject({ code: 'NOT_FOUND' });
    const updates = (await outboxOf(h.db, r.id)).filter((o) => o.kind === 'recording.updated');
    const changes = updates
      .sort((a, b) => a.payload.meetingSeq - b.payload.meetingSeq)
      .map((o) => o.payload.data.change);
    expect(changes).toEqual(['renamed', 'series_changed', 'transcript_edited']);
  });

  it('check again: back to QUEUED under a new hold, the old one let go', async () => {
    const p = principal();
    const r = await submit(p);
    const row = await h.useCases.retry.recheck(p, r.id);
    expect(row).toMatchObject({ status: 'QUEUED', holdRef: `${r.id}:recheck:${row.jobId}` });
    expect(h.bus.holds.get(r.id)!.closed).toBe('release');
    expect(h.bus.openHolds(r.id)).toEqual([row.holdRef]);
  });
});

describe('starting a digest', () => {
  it('a plan whose transcript changed before the lock is stale; run prepares again and drops the stale file', async () => {
    const p = principal();
    const r = await ready(p);
    const digest = h.useCases.digest;
    const plan = await digest.prepare(r);
    await h.useCases.admin.editSegment(p, r.id, 0, 'Hello, I am Sara.');
    await expect(inTransaction(h.db, (trx) => digest.commit(trx, plan))).rejects.toBeInstanceOf(StalePlan);
    let plans = 0;
    const stale = plan.transcriptKey;
    const row = await digest.run(
      async () => (++plans === 1 ? plan : digest.prepare(r)),
      (pl) => inTransaction(h.db, (trx) => digest.commit(trx, pl)),
    );
    expect(plans).toBe(2);
    expect(row.status).toBe('GENERATING');
    await expect(h.store.getJson(stale)).rejects.toThrow();
    const job = await lastJob(r.id);
    expect(await h.store.getJson(job.transcriptKey)).toMatchObject({ segments: [{ text: 'Hello, I am Sara.' }, {}] });
  });
});

describe('the transaction guard', () => {
  it('sees a bus request or a store write made inside a transaction', async () => {
    const before = h.violations.length;
    await inTransaction(h.db, async () => {
      await h.useCases.ctx.call(BUS.memoryNotes, { accountId: 'acc_x' });
      await h.useCases.ctx.store.putJson('work/guard.json', {});
    });
    expect(h.violations.splice(before)).toEqual(['bus memoryNotes', 'store.putJson(work/guard.json)']);
  });

  it('saw none in every flow above (submit, results, digest, naming, retry, admin)', () => {
    expect(h.bus.calls.length).toBeGreaterThan(20);
    expect(h.violations).toEqual([]);
  });
});
