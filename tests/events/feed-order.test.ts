import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { connectBus, publish, type Bus } from '@mm/bus';
import { BUS, type EventType, type RecordingEvent } from '@mm/contract';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';
import { toneWav } from '../support/media';

/**
 * Contract rule 8: for one meeting, events come in the order its changes happened. The bus does
 * not always deliver them so: an event held by a crashed events instance comes back after the
 * ack wait, behind the meeting's later events, and a replayed dead letter comes late. Recordings
 * stamps each event with its place among the meeting's events; the feed stores an event only
 * after the one before it, and stores it anyway once the wait (EVENTS_ORDER_WAIT_SECONDS) is over.
 */
let stack: Stack;
let bus: Bus;
let token: string;
let accountId: string;
beforeAll(async () => {
  stack = await startStack({ EVENTS_ORDER_WAIT_SECONDS: '4' });
  bus = await connectBus(stack.natsUrl, 'operator', stack.busNamespace);
  accountId = (await stack.admin.account()).id;
  token = (await stack.admin.token(accountId, ['recordings:read', 'recordings:write'])).value;
}, 60_000);
afterAll(async () => {
  await bus.close();
  await stack.stop();
});

type Fed = { id: string; type: string; recordingId: string };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The account's whole feed once `done` holds of it. */
async function feedUntil(done: (events: Fed[]) => boolean, timeoutMs = 20_000): Promise<Fed[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const res = await stack.api.get('/api/v1/events').query({ limit: 500 }).set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(200);
    const events = res.body.events as Fed[];
    if (done(events)) return events;
    if (Date.now() > until) throw new Error(`the feed never got there: ${JSON.stringify(events)}`);
    await sleep(200);
  }
}

const typesOf = (events: Fed[], recordingId: string) =>
  events.filter((e) => e.recordingId === recordingId).map((e) => e.type);

/** Publishes one meeting event as the recordings service's outbox would. */
async function emit(recordingId: string, type: EventType, meetingSeq: number, status: string): Promise<void> {
  const event: RecordingEvent = {
    id: `evt_${randomBytes(6).toString('hex')}`,
    type,
    recordingId,
    accountId,
    tokenId: null,
    seriesId: null,
    occurredAt: new Date().toISOString(),
    data: { status, ...(type === 'recording.failed' ? { error: { code: 'NO_SPEECH', retryable: false } } : {}) },
    meetingSeq,
  };
  await publish(bus, BUS.recordingEvent, event, event.id);
}

describe("a meeting's feed follows the order its changes happened", () => {
  it('holds an event delivered before the one it follows until that one is stored', async () => {
    const id = `rec_${randomBytes(6).toString('hex')}`;
    // What an events-service crash does: `created` was held by the killed instance and comes back late.
    await emit(id, 'recording.failed', 2, 'FAILED');
    await sleep(1500);
    await emit(id, 'recording.created', 1, 'QUEUED');
    const events = await feedUntil((e) => typesOf(e, id).length === 2);
    expect(typesOf(events, id)).toEqual(['recording.created', 'recording.failed']);
  }, 30_000);

  it("stores an event whose predecessor never comes once the wait is over, and holds no other meeting's events meanwhile", async () => {
    const lost = `rec_${randomBytes(6).toString('hex')}`;
    const other = `rec_${randomBytes(6).toString('hex')}`;
    await emit(lost, 'recording.ready', 3, 'READY');
    await emit(other, 'recording.created', 1, 'QUEUED');
    const early = await feedUntil((e) => typesOf(e, other).length === 1);
    expect(typesOf(early, lost)).toEqual([]);
    const late = await feedUntil((e) => typesOf(e, lost).length === 1);
    expect(typesOf(late, lost)).toEqual(['recording.ready']);
    // A late predecessor is still stored (once), after it: nothing is lost.
    await emit(lost, 'recording.created', 1, 'QUEUED');
    expect(typesOf(await feedUntil((e) => typesOf(e, lost).length === 2), lost)).toEqual([
      'recording.ready',
      'recording.created',
    ]);
  }, 30_000);

  it("stamps each of a meeting's events with its place, from 1 and without gaps", async () => {
    const sent = await stack.api
      .post('/api/v1/recordings')
      .set('Authorization', `Bearer ${token}`)
      .field('naming', 'skip')
      .attach('audio', readFileSync(toneWav(2)), { filename: 'm.wav', contentType: 'audio/wav' });
    expect(sent.status).toBe(202);
    const id = sent.body.recording.id as string;
    expect(
      (await stack.api.delete(`/admin/v1/recordings/${id}`).set('Authorization', `Bearer ${ADMIN_KEY}`)).status,
    ).toBe(200);
    expect(typesOf(await feedUntil((e) => typesOf(e, id).length === 2), id)).toEqual([
      'recording.created',
      'recording.deleted',
    ]);
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      const stored = await db.query('select type, meeting_seq from events.event where recording_id = $1 order by seq', [
        id,
      ]);
      expect(stored.rows).toEqual([
        { type: 'recording.created', meeting_seq: 1 },
        { type: 'recording.deleted', meeting_seq: 2 },
      ]);
    } finally {
      await db.end();
    }
  }, 30_000);
});
