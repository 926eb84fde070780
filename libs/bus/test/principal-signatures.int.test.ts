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
