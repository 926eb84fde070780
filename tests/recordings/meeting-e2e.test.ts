import { readFileSync } from 'node:fs';
import { createAjv } from '@mm/http';
import { ROUTES } from '@mm/contract';
import { EnvReader } from '@mm/http';
import { openStore, readStoreConfig } from '@mm/store';
import { startStack, type Stack } from '../support/stack';
import { speakMeeting, STANDUP_SCRIPT } from '../support/speak-meeting';
import { contentWords, waitForStatus } from '../support/wait';

const ajv = createAjv();
const schemaOf = (operationId: string, status = 200) =>
  ajv.compile(ROUTES.find((r) => r.operationId === operationId)!.responses.find((r) => r.status === status)!.schema);
const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const storeConfigOf = (env: NodeJS.ProcessEnv) => {
  const r = new EnvReader(env);
  return r.done('test', { ...readStoreConfig(r), cacheDir: `${readStoreConfig(r).cacheDir}-reader` });
};

describe.each(['file', 's3'] as const)('a meeting end to end with the offline engines on the %s store', (store) => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '2' }, { pipeline: true, store });
  }, 60_000);
  afterAll(async () => {
    await stack.stop();
  });

  it('reaches READY with speakers, the words said, turn times and a digest from what was said; charged once', async () => {
    const spoken = await speakMeeting(STANDUP_SCRIPT);
    const account = await stack.admin.account({ balanceMinutes: 100 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read', 'account:read']);
    const res = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(token.value))
      .field('title', 'Weekly standup')
      .attach('audio', readFileSync(spoken.path), { filename: 'standup.wav', contentType: 'audio/wav' });
    expect(res.status).toBe(202);
    expect(schemaOf('submitRecording', 202)(res.body)).toBe(true);
    const id = res.body.recording.id as string;
    const seen = new Set<string>();
    const ready = await waitForStatus(
      stack,
      token.value,
      id,
      (s) => {
        seen.add(s);
        return s === 'READY' || s === 'FAILED';
      },
      180_000,
    );
    expect(ready.status).toBe('READY');
    expect(schemaOf('getRecordingStatus')(ready)).toBe(true);

    const bundle = await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(bearer(token.value));
    expect(bundle.status).toBe(200);
    const validate = schemaOf('getRecordingBundle');
    expect(validate(bundle.body) || validate.errors).toBe(true);
    const { transcript, digest, stats, recording } = bundle.body;
    expect(recording).toMatchObject({
      id,
      title: 'Weekly standup',
      displayTitle: 'Weekly standup',
      access: 'owner',
      source: 'api',
    });
    expect(transcript.speakers.length).toBeGreaterThanOrEqual(2);

    const said = contentWords(STANDUP_SCRIPT.map(([, t]) => t).join(' '));
    const heard = contentWords(transcript.text);
    const found = [...said].filter((w) => heard.has(w));
    expect(found.length / said.size).toBeGreaterThanOrEqual(0.4);

    // Every spoken turn has a transcript turn starting within 1.5 s of it.
    const starts = transcript.segments.map((s: { startMs: number }) => s.startMs);
    for (const turn of spoken.turns)
      expect(Math.min(...starts.map((s: number) => Math.abs(s - turn.startMs)))).toBeLessThanOrEqual(1500);

    // `content` is the contract's name for the sections (`sections` is kept for earlier clients).
    expect(digest.content).toEqual(digest.sections);
    expect(recording.duration).toBe(recording.durationSeconds);
    expect(recording.duration).toBeGreaterThan(10);
    const kinds = digest.content.map((s: { kind: string }) => s.kind);
    expect(kinds.slice(0, 3)).toEqual(['summary', 'decision_list', 'action_item_list']);
    const summary = digest.sections[0].text as string;
    expect(summary.length).toBeGreaterThan(20);
    // The recognizer writes no punctuation or case; the digest's sentences are written.
    expect(summary).toMatch(/^[A-Z].*[.?]$/);
    const sentences = transcript.segments.map((s: { text: string }) => s.text.toLowerCase()).join(' ');
    const firstWords = summary.toLowerCase().replace(/[.?]/g, '').split(/\s+/).slice(0, 4).join(' ');
    expect(sentences).toContain(firstWords);
    expect(digest.sections[1].items.length + digest.sections[2].items.length).toBeGreaterThan(0);
    expect(stats.speakers.length).toBe(transcript.speakers.length);
    // Each person's numbers carry the name they have now, and no second name field of the pipeline's.
    const nameNow = new Map(transcript.speakers.map((p: { label: string; name: string | null }) => [p.label, p.name]));
    for (const p of stats.speakers as Record<string, unknown>[])
      expect([p.name, 'speakerName' in p]).toEqual([nameNow.get(p.speaker as string), false]);

    const md = await stack.api.get(`/api/v1/recordings/${id}/bundle?format=markdown`).set(bearer(token.value));
    expect(md.headers['content-type']).toMatch(/^text\/markdown/);
    expect(md.text.startsWith('# Weekly standup\n')).toBe(true);

    const who = await stack.api.get('/api/v1/whoami').set(bearer(token.value));
    expect(who.body.wallet.balanceMinutes).toBe(100 - res.body.recording.minutes);
    expect(who.body.token.usedMinutes24h).toBe(res.body.recording.minutes);

    const list = await stack.api.get('/api/v1/recordings/ready').set(bearer(token.value));
    expect(list.body.items.map((i: { id: string }) => i.id)).toEqual([id]);
    expect(schemaOf('listReadyRecordings')(list.body)).toBe(true);

    // The audio and the results live in the configured store (for s3, the bucket, read back through the SDK).
    const kept = await openStore(storeConfigOf(stack.env));
    expect(await kept.size(`audio/${id}/source`)).toBeGreaterThan(100_000);
    await kept.close();
  }, 240_000);

  it('fails a silent meeting with NO_SPEECH, retryable false, and charges nothing', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'account:read']);
    const silentWav = await (await import('../support/speak-meeting')).silence(4);
    const res = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(token.value))
      .field('naming', 'skip')
      .attach('audio', readFileSync(silentWav), { filename: 's.wav', contentType: 'audio/wav' });
    expect(res.status).toBe(202);
    const failed = await waitForStatus(
      stack,
      token.value,
      res.body.recording.id,
      (s) => s === 'FAILED' || s === 'READY',
    );
    expect(failed.error).toEqual({ code: 'NO_SPEECH', retryable: false });
    const who = await stack.api.get('/api/v1/whoami').set(bearer(token.value));
    expect(who.body.wallet.balanceMinutes).toBe(10);
  }, 120_000);
});
