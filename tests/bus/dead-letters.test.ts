import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { JSONCodec } from 'nats';
import { headers as natsHeaders } from 'nats';
import {
  connectBus,
  consume,
  deadLetterSubject,
  natsCredentials,
  on,
  parkInDeadLetters,
  publish,
  subjectFor,
  type Bus,
} from '@mm/bus';
import { BUS, type RecordingEvent } from '@mm/contract';
import { serviceRegistry } from '@mm/http';
import { loadConfig as gatewayConfig } from '../../services/gateway/src/config';
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
  // The operator's tools hold the internal secret: the letters they write are signed.
  bus = await connectBus(stack.natsUrl, 'operator', stack.busNamespace, {
    internalSecret: gatewayConfig(stack.env).internalJwtSecret,
  });
}, 60_000);
afterAll(async () => {
  await bus.close();
  await stack.stop();
});

const admin = {
  list: () => stack.api.get('/admin/v1/dead-letters').set('Authorization', `Bearer ${ADMIN_KEY}`),
  read: (seq: number) => stack.api.get(`/admin/v1/dead-letters/${seq}`).set('Authorization', `Bearer ${ADMIN_KEY}`),
  replays: () => stack.api.get('/admin/v1/dead-letters/replays').set('Authorization', `Bearer ${ADMIN_KEY}`),
  /** A replay as an operator makes one: the letter read first, its payload's digest named. */
  replay: async (seq: number | string, body?: Record<string, unknown>) => {
    const shown = typeof seq === 'number' ? (await admin.read(seq)).body.letter : null;
    return stack.api
      .post(`/admin/v1/dead-letters/${seq}/replay`)
      .set('Authorization', `Bearer ${ADMIN_KEY}`)
      .send(body ?? { payloadSha256: shown?.payloadSha256 ?? '0'.repeat(64), operator: 'ops-alice' });
  },
};

type Letter = {
  seq: number;
  subject: string;
  reason: string;
  problem: string;
  consumer: string;
  deliveries: number;
  by: string | null;
  replay: { subject: string | null; refusal: string | null };
  payloadSha256: string;
  headers: Record<string, string>;
  payload: any;
};

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
    await bus.js.publish(
      stack.busNamespace + BUS.transcribeJob.subject,
      JSONCodec().encode({ jobId: 'job_malformed', step: 'transcribe' }),
      { msgID: 'malformed-1' },
    );
    await readyMeeting();

    const letter = await deadLetter(
      (l) => l.subject === BUS.transcribeJob.subject && l.payload?.jobId === 'job_malformed',
    );
    expect(letter).toMatchObject({
      reason: 'invalid',
      consumer: 'pipeline-transcribe',
      deliveries: 1,
      by: 'pipeline',
      replay: { subject: BUS.transcribeJob.subject, refusal: null },
    });
    expect(letter.problem).toMatch(/required property/);
    expect(await deadLetterCount('pipeline', BUS.transcribeJob.subject, 'invalid')).toBe(before + 1);

    // Replayed as it is, it is still malformed: it is run again and comes back as a new dead letter.
    const replayed = await admin.replay(letter.seq);
    expect(replayed.status).toBe(200);
    expect(replayed.body).toEqual({
      seq: letter.seq,
      subject: BUS.transcribeJob.subject,
      deadLetteredBy: 'pipeline',
      askedBy: 'ops-alice',
      replayed: true,
    });
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
      await publish(
        bus,
        BUS.timerSet,
        {
          timerId: 'tmr_always_fails',
          recordingId: 'rec_x',
          kind: 'naming_deadline',
          runAt: '2099-01-01T00:00:00.000Z',
          ref: 'r',
        },
        'timer-fails-1',
      );
      const letter = await deadLetter((l) => l.payload?.timerId === 'tmr_always_fails');
      expect(letter).toMatchObject({
        subject: BUS.timerSet.subject,
        reason: 'failed',
        consumer: 'dead-letter-test',
        deliveries: 3,
      });
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
      const event: RecordingEvent = {
        id: 'evt_refused',
        type: 'recording.created',
        recordingId: 'rec_x',
        accountId: 'acc_x',
        tokenId: null,
        seriesId: null,
        occurredAt: new Date().toISOString(),
        data: { status: 'QUEUED' },
      };
      const subject = subjectFor(BUS.recordingEvent, event);
      await db.query('insert into recordings.outbox (id, subject, payload) values ($1, $2, $3)', [
        'evt_refused',
        subject,
        JSON.stringify({ ...event, blob: 'x'.repeat(1_200_000) }),
      ]);
      const id = await readyMeeting();
      const row = (
        await db.query("select attempts, parked_at, published_at from recordings.outbox where id = 'evt_refused'")
      ).rows[0];
      expect(row.attempts).toBe(3);
      expect(row.parked_at).not.toBeNull();
      expect(row.published_at).toBeNull();
      // Every row behind it leaves (the relay runs every 100 ms; READY's own event may still be on its way).
      const waiting = async () =>
        (
          await db.query(
            'select count(*)::int as n from recordings.outbox where published_at is null and parked_at is null',
          )
        ).rows[0].n as number;
      const until = Date.now() + 10_000;
      while ((await waiting()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      expect(await waiting()).toBe(0);
      const letter = await deadLetter((l) => l.headers['Mm-Outbox-Id'] === 'evt_refused');
      expect(letter).toMatchObject({
        subject,
        reason: 'refused',
        consumer: 'outbox:recordings',
        by: 'recordings',
        payload: { outboxId: 'evt_refused' },
      });
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

describe('a dead-letter replay trusts no header', () => {
  const credit = (reference: string) => ({ accountId: '', minutes: 10_000_000, kind: 'grant', reference });
  let accountId: string;
  let balance: () => Promise<number>;
  beforeAll(async () => {
    accountId = (await stack.admin.account({ balanceMinutes: 30 })).id;
    const token = (await stack.admin.token(accountId, ['account:read'])).value;
    balance = async () =>
      (await stack.api.get('/api/v1/account').set('Authorization', `Bearer ${token}`)).body.wallet.balanceMinutes;
  });

  /** Writes a letter as it lands in the stream (the operator's credentials reach any subject: a broker config not regenerated, an older release). */
  async function forge(subject: string, headers: Record<string, string>, payload: unknown): Promise<Letter> {
    const h = natsHeaders();
    for (const [k, v] of Object.entries({
      'Mm-Dead-Reason': 'invalid',
      'Mm-Dead-Consumer': 'x',
      'Mm-Dead-Stream': 'PIPELINE',
      ...headers,
    }))
      h.set(k, v);
    const ack = await bus.js.publish(stack.busNamespace + subject, JSONCodec().encode(payload), { headers: h });
    return (await admin.read(ack.seq)).body.letter;
  }

  it('refuses to replay a letter naming a request (minting minutes), whoever wrote it, and shows its payload', async () => {
    const before = await balance();
    const letters = [
      // An older release's letter: the target only in its header.
      await forge(
        `deadletter.${BUS.walletCredit.subject}`,
        { 'Mm-Dead-Subject': BUS.walletCredit.subject },
        { ...credit('forged-1'), accountId },
      ),
      // The gateway may ask for credits, but a request is no stream's subject.
      await forge(
        deadLetterSubject('gateway', BUS.walletCredit.subject),
        { 'Mm-Dead-Subject': BUS.walletCredit.subject, 'Mm-Dead-By': 'gateway' },
        { ...credit('forged-2'), accountId },
      ),
      // A letter under pipeline's name whose header names another subject.
      await forge(
        deadLetterSubject('pipeline', BUS.transcribeJob.subject),
        { 'Mm-Dead-Subject': BUS.walletCredit.subject, 'Mm-Dead-By': 'pipeline' },
        { ...credit('forged-3'), accountId },
      ),
    ];
    const refusals = [/older release/, /not a fact or job/, /headers do not match/];
    for (const [i, letter] of letters.entries()) {
      expect(letter.replay).toEqual({ subject: null, refusal: expect.stringMatching(refusals[i]) });
      const res = await admin.replay(letter.seq);
      expect(res.status).toBe(400);
      expect(res.body.error.details.letter.payload).toMatchObject({ minutes: 10_000_000, accountId });
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(await balance()).toBe(before);
    const listed = (await admin.list()).body.items.map((l: Letter) => l.seq);
    for (const letter of letters) expect(listed).toContain(letter.seq);
  });

  it('refuses a letter its writer could not have sent by the table, and one whose signature does not verify', async () => {
    const job = {
      jobId: 'job_x',
      step: 'transcribe',
      recordingId: 'rec_x',
      accountId: 'acc_x',
      attempt: 1,
      audioKey: 'a',
    };
    const bySeries = await forge(
      deadLetterSubject('series', BUS.transcribeJob.subject),
      { 'Mm-Dead-Subject': BUS.transcribeJob.subject, 'Mm-Dead-By': 'series' },
      job,
    );
    expect(bySeries.replay.refusal).toMatch(/series neither consumes nor publishes/);
    const unsigned = await forge(
      deadLetterSubject('pipeline', BUS.transcribeJob.subject),
      { 'Mm-Dead-Subject': BUS.transcribeJob.subject, 'Mm-Dead-By': 'pipeline', 'Mm-Dead-Signature': 'x' },
      job,
    );
    expect(unsigned.replay.refusal).toMatch(/signature does not verify/);
    expect((await admin.replay(unsigned.seq)).status).toBe(400);
  });

  it('lets a service write letters only under its own name and for its own subjects (the broker refuses the rest)', async () => {
    const pipeline = await connectBus(stack.natsUrl, 'pipeline', stack.busNamespace, natsCredentials('pipeline'));
    try {
      for (const subject of [
        deadLetterSubject('pipeline', BUS.walletCredit.subject),
        deadLetterSubject('recordings', BUS.recordingEvent.subject.replace('>', 'created')),
      ]) {
        await expect(
          pipeline.js.publish(stack.busNamespace + subject, JSONCodec().encode({}), { timeout: 1500 }),
        ).rejects.toThrow();
      }
    } finally {
      await pipeline.close();
    }
  });

  it('replays only the payload the operator read, and records who asked', async () => {
    const timer = {
      timerId: 'tmr_replayed',
      recordingId: 'rec_y',
      kind: 'naming_deadline',
      runAt: '2099-01-01T00:00:00.000Z',
      ref: 'r',
    };
    await parkInDeadLetters(
      bus,
      { id: 'row-replayed', subject: BUS.timerSet.subject, payload: timer, version: 1 },
      'test',
      'outbox:operator',
    );
    const letter = await deadLetter((l) => l.headers['Mm-Outbox-Id'] === 'row-replayed');
    expect(letter).toMatchObject({
      by: 'operator',
      replay: { subject: BUS.timerSet.subject, refusal: null },
      payload: timer,
    });
    const unread = await admin.replay(letter.seq, { payloadSha256: 'f'.repeat(64), operator: 'ops-bob' });
    expect(unread.status).toBe(400);
    expect(unread.body.error.message).toMatch(/payloadSha256/);
    expect((await admin.replay(letter.seq, { payloadSha256: letter.payloadSha256 })).status).toBe(400);
    const done = await admin.replay(letter.seq, { payloadSha256: letter.payloadSha256, operator: 'ops-bob' });
    expect(done.status).toBe(200);
    const record = (await admin.replays()).body.items.find((r: { seq: number }) => r.seq === letter.seq);
    expect(record).toMatchObject({
      subject: BUS.timerSet.subject,
      deadLetteredBy: 'operator',
      payloadSha256: letter.payloadSha256,
      askedBy: 'ops-bob',
      clientAddress: expect.any(String),
    });
  });
});
