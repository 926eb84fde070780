import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { JSONCodec } from 'nats';
import { connectBus, consume, on, publish, subjectFor, type Bus } from '@mm/bus';
import { BUS, type RecordingEvent } from '@mm/contract';
import { serviceRegistry } from '@mm/http';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';
import { speakMeeting } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';

/**
 * Nothing is redelivered forever: a message that breaks the bus table, or whose handler keeps
 * failing past its limit, lands in the dead-letter stream with why and where it came from; the
 * operator lists and replays it through the admin API. An outbox row JetStream refuses is parked
 * there too, and the rows behind it flow.
 */
let stack: Stack;
let bus: Bus;
beforeAll(async () => {
  stack = await startStack({}, { pipeline: true });
  bus = await connectBus(stack.natsUrl, 'operator', stack.busNamespace);
}, 60_000);
afterAll(async () => {
  await bus.close();
  await stack.stop();
});

const admin = {
  list: () => stack.api.get('/admin/v1/dead-letters').set('Authorization', `Bearer ${ADMIN_KEY}`),
  replay: (seq: number | string) => stack.api.post(`/admin/v1/dead-letters/${seq}/replay`).set('Authorization', `Bearer ${ADMIN_KEY}`),
};

type Letter = { seq: number; subject: string; reason: string; problem: string; consumer: string; deliveries: number; headers: Record<string, string>; payload: any };

/** Waits for a dead letter that `match` picks. */
async function deadLetter(match: (l: Letter) => boolean, timeoutMs = 30_000): Promise<Letter> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const res = await admin.list();
    expect(res.status).toBe(200);
    const found = (res.body.items as Letter[]).find(match);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('no such dead letter came');
}

async function readyMeeting(): Promise<string> {
  const account = await stack.admin.account({ balanceMinutes: 30 });
  const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read']);
  const meeting = await speakMeeting([['slt', 'We decided to ship the release on Friday.']]);
  const sent = await stack.api
    .post('/api/v1/recordings')
    .set('Authorization', `Bearer ${token.value}`)
    .field('naming', 'skip')
    .attach('audio', readFileSync(meeting.path), { filename: 'm.wav', contentType: 'audio/wav' });
  expect(sent.status).toBe(202);
  const id = sent.body.recording.id as string;
  expect((await waitForStatus(stack, token.value, id, (s) => s === 'READY' || s === 'FAILED')).status).toBe('READY');
  return id;
}

const deadLetterCount = async (service: string, subject: string, reason: string) => {
  const metric = (await serviceRegistry(service).getSingleMetricAsString('bus_dead_letters_total')).split('\n');
  const line = metric.find((l) => l.includes(`subject="${subject}"`) && l.includes(`reason="${reason}"`));
  return line ? Number(line.split(' ').pop()) : 0;
};

describe('dead letters', () => {
  it('sends a malformed job to the dead letters at once, keeps processing other meetings, and replays it on request', async () => {
    const before = await deadLetterCount('pipeline', BUS.transcribeJob.subject, 'invalid');
    await bus.js.publish(stack.busNamespace + BUS.transcribeJob.subject, JSONCodec().encode({ jobId: 'job_malformed', step: 'transcribe' }), { msgID: 'malformed-1' });
    await readyMeeting();

    const letter = await deadLetter((l) => l.subject === BUS.transcribeJob.subject && l.payload?.jobId === 'job_malformed');
    expect(letter).toMatchObject({ reason: 'invalid', consumer: 'pipeline-transcribe', deliveries: 1 });
    expect(letter.problem).toMatch(/required property/);
    expect(await deadLetterCount('pipeline', BUS.transcribeJob.subject, 'invalid')).toBe(before + 1);

    // Replayed as it is, it is still malformed: it is run again and comes back as a new dead letter.
    const replayed = await admin.replay(letter.seq);
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual({ seq: letter.seq, subject: BUS.transcribeJob.subject, replayed: true });
    const again = await deadLetter((l) => l.payload?.jobId === 'job_malformed' && l.seq > letter.seq);
    expect(again.reason).toBe('invalid');
    expect((await admin.list()).body.items.map((l: Letter) => l.seq)).not.toContain(letter.seq);
    expect((await admin.replay(letter.seq)).status).toBe(404);
    expect((await admin.replay('x1')).status).toBe(400);
  }, 120_000);

  it('sends a message whose handler keeps failing to the dead letters after its limit; replayed once the cause is fixed, it is handled', async () => {
    let broken = true;
    const handled: string[] = [];
    const stop = await consume(
      bus,
      [
        on(BUS.timerSet, async (t) => {
          if (broken) throw new Error('the timer store is away');
          handled.push(t.timerId);
        }),
      ],
      { durable: 'dead-letter-test', retryDelayMs: 50, maxDeliver: 3, onError: () => undefined },
    );
    try {
      await publish(bus, BUS.timerSet, { timerId: 'tmr_always_fails', recordingId: 'rec_x', kind: 'naming_deadline', runAt: '2099-01-01T00:00:00.000Z', ref: 'r' }, 'timer-fails-1');
      const letter = await deadLetter((l) => l.payload?.timerId === 'tmr_always_fails');
      expect(letter).toMatchObject({ subject: BUS.timerSet.subject, reason: 'failed', consumer: 'dead-letter-test', deliveries: 3 });
      expect(letter.problem).toBe('the timer store is away');
      expect(letter.headers['Mm-Bus-Version']).toBe('1');
      expect(handled).toEqual([]);

      broken = false;
      expect((await admin.replay(letter.seq)).status).toBe(200);
      const until = Date.now() + 10_000;
      while (!handled.length && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(handled).toEqual(['tmr_always_fails']);
    } finally {
      await stop();
    }
  }, 60_000);

  it('parks an outbox row JetStream refuses in the dead letters; the rows behind it are published', async () => {
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      // Larger than NATS takes (1 MB): JetStream refuses it every time.
      const event: RecordingEvent = { id: 'evt_refused', type: 'recording.created', recordingId: 'rec_x', accountId: 'acc_x', tokenId: null, seriesId: null, occurredAt: new Date().toISOString(), data: { status: 'QUEUED' } };
      const subject = subjectFor(BUS.recordingEvent, event);
      await db.query('insert into recordings.outbox (id, subject, payload) values ($1, $2, $3)', ['evt_refused', subject, JSON.stringify({ ...event, blob: 'x'.repeat(1_200_000) })]);
      const id = await readyMeeting();
      const row = (await db.query("select attempts, parked_at, published_at from recordings.outbox where id = 'evt_refused'")).rows[0];
      expect(row.attempts).toBe(3);
      expect(row.parked_at).not.toBeNull();
      expect(row.published_at).toBeNull();
      // Every row behind it leaves (the relay runs every 100 ms; READY's own event may still be on its way).
      const waiting = async () => (await db.query('select count(*)::int as n from recordings.outbox where published_at is null and parked_at is null')).rows[0].n as number;
      const until = Date.now() + 10_000;
      while ((await waiting()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(await waiting()).toBe(0);
      const letter = await deadLetter((l) => l.headers['Mm-Outbox-Id'] === 'evt_refused');
      expect(letter).toMatchObject({ subject, reason: 'refused', consumer: 'outbox:recordings', payload: { outboxId: 'evt_refused' } });
      expect(letter.problem).toMatch(/MAX_PAYLOAD|payload/i);
      // /metrics tells: one parked row, nothing waiting, and the dead letter counted.
      const metrics = await serviceRegistry('recordings').metrics();
      expect(metrics).toMatch(/^outbox_parked_rows\{[^}]*\} 1$/m);
      expect(metrics).toMatch(/^outbox_waiting_rows\{[^}]*\} 0$/m);
      expect(await deadLetterCount('recordings', BUS.recordingEvent.subject, 'refused')).toBe(1);
      expect(id).toMatch(/^rec_/);
    } finally {
      await db.end();
    }
  }, 120_000);
});
