import { readFileSync } from 'node:fs';
import { createAjv } from '@mm/http';
import { ROUTES } from '@mm/contract';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';
import { speakMeeting } from '../support/speak-meeting';
import { toneWav } from '../support/media';
import { waitForStatus } from '../support/wait';
import { CursorCodec } from '../../services/events/src/domain/feed-cursor';
import { loadConfig as eventsConfig } from '../../services/events/src/config';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1' }, { pipeline: true });
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const ajv = createAjv();
const pageSchema = ajv.compile(ROUTES.find((r) => r.operationId === 'listEvents')!.responses[0].schema);
const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });
const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
const RW = ['recordings:read', 'recordings:write'];

interface FeedEvent {
  id: string;
  type: string;
  recordingId: string;
  seriesId: string | null;
  occurredAt: string;
  data: Record<string, unknown>;
}

async function submit(token: string, file: string) {
  const res = await stack.api
    .post('/api/v1/recordings')
    .set(bearer(token))
    .field('naming', 'skip')
    .attach('audio', readFileSync(file), { filename: 'm.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  return res.body.recording.id as string;
}

/** One page, checked against the contract's response schema. */
async function read(token: string, query: Record<string, string | number> = {}) {
  const res = await stack.api.get('/api/v1/events').query(query).set(bearer(token));
  expect(res.status).toBe(200);
  expect(pageSchema(res.body)).toBe(true);
  return res.body as { schemaVersion: 1; events: FeedEvent[]; nextCursor: string };
}

/** Reads the whole feed from `after` (absent = from the start) until `done` holds of what was read. */
async function readUntil(token: string, done: (events: FeedEvent[]) => boolean, after?: string, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  const events: FeedEvent[] = [];
  let cursor = after;
  for (;;) {
    const page = await read(token, cursor ? { after: cursor } : {});
    events.push(...page.events);
    cursor = page.nextCursor;
    if (done(events)) return { events, cursor };
    if (Date.now() > until) throw new Error(`feed never got there; read ${JSON.stringify(events)}`);
    if (page.events.length === 0) await new Promise((r) => setTimeout(r, 250));
  }
}

const typesOf = (events: FeedEvent[], id: string) => events.filter((e) => e.recordingId === id).map((e) => e.type);

describe('the events feed through the gateway', () => {
  let account: { id: string };
  let token: { id: string; value: string };
  let meeting: string;

  beforeAll(async () => {
    account = await stack.admin.account();
    token = await stack.admin.token(account.id, RW);
    const spoken = await speakMeeting([
      ['slt', 'Good morning. We decided to ship on Friday.'],
      ['rms', 'Great. I will write the notes tomorrow.'],
    ]);
    meeting = await submit(token.value, spoken.path);
    await waitForStatus(stack, token.value, meeting, (s) => s === 'READY' || s === 'FAILED', 180_000);
  }, 240_000);

  it('shows recording.created then recording.ready for a meeting, each once, without account or token', async () => {
    const { events } = await readUntil(token.value, (ev) => typesOf(ev, meeting).includes('recording.ready'));
    expect(typesOf(events, meeting)).toEqual(['recording.created', 'recording.ready']);
    const [created, ready] = events.filter((e) => e.recordingId === meeting);
    expect(created.data.status).toEqual(expect.any(String));
    expect(ready.data.status).toBe('READY');
    expect(created.id).not.toBe(ready.id);
    expect(Object.keys(ready).sort()).toEqual(['data', 'id', 'occurredAt', 'recordingId', 'seriesId', 'type']);
    expect(JSON.stringify(events)).not.toContain(account.id);
    expect(JSON.stringify(events)).not.toContain(token.id);
  });

  it('pages with limit=1 through the same events in the same order', async () => {
    const all = (await read(token.value)).events;
    expect(all.length).toBeGreaterThanOrEqual(2);
    const walked: FeedEvent[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < all.length + 1; i++) {
      const page = await read(token.value, cursor ? { after: cursor, limit: 1 } : { limit: 1 });
      expect(page.events.length).toBeLessThanOrEqual(1);
      expect(page.nextCursor).toEqual(expect.any(String));
      walked.push(...page.events);
      cursor = page.nextCursor;
      if (page.events.length === 0) break;
    }
    expect(walked.map((e) => e.id)).toEqual(all.map((e) => e.id));
    // Caught up: an empty page still gives a cursor, at the same position.
    const again = await read(token.value, { after: cursor! });
    expect(again.events).toEqual([]);
    expect((await read(token.value, { after: again.nextCursor })).events).toEqual([]);
  });

  it('after=latest gives no events and a cursor from which a rename is the next event', async () => {
    const latest = await read(token.value, { after: 'latest' });
    expect(latest.events).toEqual([]);
    expect(latest.nextCursor).toEqual(expect.any(String));
    const renamed = await stack.api
      .patch(`/admin/v1/recordings/${meeting}`)
      .set(admin)
      .send({ title: 'Release planning' });
    expect(renamed.status).toBe(200);
    const { events } = await readUntil(token.value, (ev) => ev.length > 0, latest.nextCursor);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'recording.updated',
      recordingId: meeting,
      data: { status: 'READY', change: 'renamed' },
    });
  });

  it('names speakers through the naming sheet: one event when a name changes, none when nothing does or the label is not in the meeting', async () => {
    const latest = await read(token.value, { after: 'latest' });
    const bundle = await stack.api.get(`/api/v1/recordings/${meeting}/bundle`).set(bearer(token.value));
    const label = bundle.body.transcript.speakers[0].label as string;
    const name = (names: Record<string, string>) =>
      stack.api.put(`/admin/v1/recordings/${meeting}/speakers`).set(admin).send({ names });
    expect((await name({ [label]: 'Sara' })).status).toBe(200);
    expect((await name({ [label]: ' Sara ' })).status).toBe(200);
    expect((await name({ speaker_99: 'Ghost' })).status).toBe(200);
    const { events } = await readUntil(token.value, (ev) => ev.length > 0, latest.nextCursor);
    await new Promise((r) => setTimeout(r, 1000));
    const settled = await read(token.value, { after: latest.nextCursor });
    expect(settled.events.map((e: { data: { change?: string } }) => e.data.change)).toEqual(['speakers_renamed']);
    expect(events[0]).toMatchObject({ type: 'recording.updated', recordingId: meeting });
  });

  it('refuses a tampered or made-up cursor with 400 VALIDATION', async () => {
    const { nextCursor } = await read(token.value, { after: 'latest' });
    const tampered = nextCursor.slice(0, -2) + (nextCursor.endsWith('AA') ? 'BB' : 'AA');
    for (const after of [tampered, 'evt_123', Buffer.from('v1.1.1').toString('base64url')]) {
      const res = await stack.api.get('/api/v1/events').query({ after }).set(bearer(token.value));
      expect([res.status, res.body.error?.code]).toEqual([400, 'VALIDATION']);
    }
    const bad = await stack.api.get('/api/v1/events').query({ limit: 501 }).set(bearer(token.value));
    expect([bad.status, bad.body.error?.code]).toEqual([400, 'VALIDATION']);
  });

  it('answers 410 CURSOR_EXPIRED for a cursor older than 30 days or from before a restore', async () => {
    const codec = new CursorCodec(eventsConfig(stack.env).internalJwtSecret);
    const old = codec.encode({ seq: 1n, at: Date.now() - 31 * 24 * 3600 * 1000 });
    const ahead = codec.encode({ seq: 10n ** 12n, at: Date.now() });
    for (const after of [old, ahead]) {
      const res = await stack.api.get('/api/v1/events').query({ after }).set(bearer(token.value));
      expect([res.status, res.body.error?.code]).toEqual([410, 'CURSOR_EXPIRED']);
    }
  });

  it("gives a write-only token only its own meetings' events, and another account none", async () => {
    const writer = await stack.admin.token(account.id, ['recordings:write']);
    const own = await submit(writer.value, toneWav(3));
    const mine = await readUntil(writer.value, (ev) => typesOf(ev, own).includes('recording.created'));
    expect(new Set(mine.events.map((e) => e.recordingId))).toEqual(new Set([own]));
    // The reading token sees both meetings.
    const all = await readUntil(token.value, (ev) => typesOf(ev, own).includes('recording.created'));
    expect(typesOf(all.events, meeting)).toEqual(expect.arrayContaining(['recording.created', 'recording.ready']));

    const other = await stack.admin.account();
    const stranger = await stack.admin.token(other.id, RW);
    const page = await read(stranger.value);
    expect(page.events).toEqual([]);
    expect(page.nextCursor).toEqual(expect.any(String));
  }, 60_000);
});
