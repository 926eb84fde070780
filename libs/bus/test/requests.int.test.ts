import { randomBytes } from 'node:crypto';
import { BUS } from '@mm/contract';
import type { Principal } from '@mm/platform';
import { connectBus, PRINCIPAL_HEADER, request, serve, wireSubject, type Bus } from '../src';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

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
    bus = await connectBus(NATS_URL, 'operator', `t${randomBytes(5).toString('hex')}.`, {
      internalSecret: 'a-test-secret-of-enough-length-0123456789',
    });
    // A tap beside the owner sees each request's header as it travelled.
    bus.nc.subscribe(wireSubject(bus.nc, BUS.askMeetingPrice.subject), {
      callback: (_err, msg) => headers.push(msg.headers?.get(PRINCIPAL_HEADER) ?? ''),
    });
    serve(
      bus.nc,
      BUS.askMeetingPrice,
      async (_q, { principal }) => {
        served.push(principal!.accountId);
        return { status: 'READY', charsRead: 1 };
      },
      () => {},
    );
    await bus.nc.flush();
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
    bus = await connectBus(NATS_URL, 'operator', `t${randomBytes(5).toString('hex')}.`, {
      internalSecret: 'a-test-secret-of-enough-length-0123456789',
    });
    serve(
      bus.nc,
      BUS.askMeetingPrice,
      async (q) => ({ status: 'READY', charsRead: q.recordingId.length }),
      () => {},
    );
    await bus.nc.flush();
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
