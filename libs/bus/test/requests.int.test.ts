import { randomBytes } from 'node:crypto';
import { BUS } from '@mm/contract';
import type { Principal } from '@mm/platform';
import { connectBus, contextOf, PRINCIPAL_HEADER, request, serve, wireSubject, type Bus } from '../src';
import { SWEEP_MS } from '../src/replies';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

const SECRET = 'a-test-secret-of-enough-length-0123456789';

/** A connection in a namespace of its own (or `namespace`), signing callers with the test secret. */
const connect = (namespace = `t${randomBytes(5).toString('hex')}.`) =>
  connectBus(NATS_URL, 'operator', namespace, { internalSecret: SECRET });

/** Serves the meeting-price entry on `bus` with `answer`, once the broker has the subscription. */
async function servePrice(
  bus: Bus,
  answer: (q: { recordingId: string }, principal: Principal | null) => Promise<{ charsRead: number }>,
): Promise<void> {
  serve(
    bus.nc,
    BUS.askMeetingPrice,
    async (q, { principal }) => ({ status: 'READY', ...(await answer(q, principal)) }),
    () => {},
  );
  await bus.nc.flush();
}

const caller = (accountId: string): Principal => ({
  accountId,
  displayName: null,
  source: 'token',
  tokenId: `tok_${accountId}`,
  tokenName: null,
  tokenExpiresAt: null,
  scopes: ['recordings:read'],
  dailyMinuteCap: null,
  features: { series: true, ask: true, videoUpload: true, memory: true },
});

/**
 * A service passes its verified caller on with each request made for it: the signature of one
 * caller object is reused for a while (so neither side pays an HMAC per request), and every
 * request is still answered as its own caller.
 */
describe('callers passed on over the bus', () => {
  let bus: Bus;
  const headers: string[] = [];
  const served: string[] = [];
  beforeAll(async () => {
    bus = await connect();
    // A tap beside the owner sees each request's header as it travelled.
    bus.nc.subscribe(wireSubject(bus.nc, BUS.askMeetingPrice.subject), {
      callback: (_err, msg) => headers.push(msg.headers?.get(PRINCIPAL_HEADER) ?? ''),
    });
    await servePrice(bus, async (_q, principal) => {
      served.push(principal!.accountId);
      return { charsRead: 1 };
    });
  });
  afterAll(() => bus.close());

  it('reuses one signature per caller object across requests, and answers each as its own caller', async () => {
    const a = caller('acc_a');
    const b = caller('acc_b');
    await request(bus.nc, BUS.askMeetingPrice, { recordingId: 'rec_1' }, { principal: a });
    // A second later a fresh signature would carry another issued-at, so would differ.
    await new Promise((r) => setTimeout(r, 1100));
    await request(bus.nc, BUS.askMeetingPrice, { recordingId: 'rec_1' }, { principal: a });
    await request(bus.nc, BUS.askMeetingPrice, { recordingId: 'rec_1' }, { principal: b });
    await request(bus.nc, BUS.askMeetingPrice, { recordingId: 'rec_1' }, { principal: { ...a } });
    expect(served).toEqual(['acc_a', 'acc_a', 'acc_b', 'acc_a']);
    expect(headers).toHaveLength(4);
    expect(headers[1]).toBe(headers[0]);
    expect(headers[2]).not.toBe(headers[0]);
    // Another object is another state: signed afresh (a later issued-at than the reused one).
    expect(headers[3]).not.toBe(headers[0]);
  });
});

/**
 * Requests made in one turn of the event loop leave together: the client writes what was
 * published in one run of microtasks in one write, and each request waits for the turn's end
 * before it publishes, so a burst costs the broker one wake-up, not one per request.
 */
describe('requests of one turn', () => {
  let bus: Bus;
  beforeAll(async () => {
    bus = await connect();
    await servePrice(bus, async (q) => ({ charsRead: q.recordingId.length }));
  });
  afterAll(() => bus.close());

  it('leave in one write, each answered as its own', async () => {
    // The client's socket writer (nats.js keeps it as protocol.transport): count the writes that
    // carry a request to the subject.
    const transport = Reflect.get(Reflect.get(bus.nc, 'protocol') as object, 'transport') as {
      send(data: Uint8Array): void;
    };
    const send = transport.send.bind(transport);
    const subject = wireSubject(bus.nc, BUS.askMeetingPrice.subject);
    let writes = 0;
    transport.send = (data) => {
      if (Buffer.from(data).toString('latin1').includes(subject)) writes++;
      send(data);
    };
    try {
      const a = caller('acc_turn');
      // Each from its own callback of one turn, as the reads of one socket read reach a service
      // (microtasks run between the callbacks: without the wait, each would be its own write).
      const answers = await Promise.all(
        ['rec_1', 'rec_22', 'rec_333', 'rec_4444', 'rec_55555'].map(
          (recordingId) =>
            new Promise<{ charsRead: number | null }>((resolve, reject) =>
              setImmediate(() =>
                request(bus.nc, BUS.askMeetingPrice, { recordingId }, { principal: a }).then(resolve, reject),
              ),
            ),
        ),
      );
      expect(answers.map((r) => r.charsRead)).toEqual([5, 6, 7, 8, 9]);
      expect(writes).toBe(1);
    } finally {
      transport.send = send;
    }
  });
});

/**
 * Requests wait on one inbox subscription (Replies): each settles by its reply's token, a late
 * reply finds nobody, nothing serving the subject fails at once, and closing fails what waits.
 */
describe('requests without an answer', () => {
  let bus: Bus;
  const release: Array<() => void> = [];
  beforeAll(async () => {
    bus = await connect();
    // Answers when the test says so: `rec_wait…` waits for release(), others at once.
    await servePrice(bus, async (q) => {
      if (q.recordingId.startsWith('rec_wait')) await new Promise<void>((r) => release.push(r));
      return { charsRead: q.recordingId.length };
    });
  });
  afterAll(() => bus.close());
  const a = caller('acc_wait');

  it('time out with the subject named, and a reply after that is nobody’s', async () => {
    const started = Date.now();
    const late = request(bus.nc, BUS.askMeetingPrice, { recordingId: 'rec_wait_1' }, { principal: a, timeoutMs: 200 });
    await expect(late).rejects.toMatchObject({ code: 'TIMEOUT', message: expect.stringContaining('ask.meeting') });
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    expect(Date.now() - started).toBeLessThan(200 + SWEEP_MS + 200);
    // The late answer arrives while another request waits: each still gets its own.
    const next = request(bus.nc, BUS.askMeetingPrice, { recordingId: 'rec_22' }, { principal: a });
    release.shift()!();
    await expect(next).resolves.toEqual({ status: 'READY', charsRead: 6 });
    expect(contextOf(bus.nc).replies!.inFlight).toBe(0);
  });

  it('fail at once when nothing serves the subject', async () => {
    const started = Date.now();
    await expect(
      request(bus.nc, BUS.askMeeting, { recordingId: 'rec_1' }, { principal: a, timeoutMs: 4000 }),
    ).rejects.toMatchObject({ code: 'NO_RESPONDERS', message: expect.stringContaining(BUS.askMeeting.subject) });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answer many at once, each its own', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => `rec_${'x'.repeat(i % 17)}${i}`);
    const answers = await Promise.all(
      ids.map((recordingId) => request(bus.nc, BUS.askMeetingPrice, { recordingId }, { principal: a })),
    );
    expect(answers.map((r) => r.charsRead)).toEqual(ids.map((id) => id.length));
  });

  it('fail what waits when the connection closes', async () => {
    const other = await connect(contextOf(bus.nc).namespace);
    const waiting = request(other.nc, BUS.askMeetingPrice, { recordingId: 'rec_wait_2' }, { principal: a });
    // Published (the request waits for its turn's end first), not yet answered.
    await new Promise((r) => setTimeout(r, 100));
    await other.nc.close();
    await expect(waiting).rejects.toMatchObject({ code: 'CLOSED' });
    release.shift()!();
  });
});
