import { randomBytes } from 'node:crypto';
import { BUS } from '@mm/contract';
import { BusContractError, check, connectBus, publish, request, strictSending, type Bus } from '../src';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

/**
 * The bus checks what it sends as well as what it receives; in the test suite that check is on
 * (strict), so every message and reply any test makes a service send has followed the table.
 */
let bus: Bus;
beforeAll(async () => {
  bus = await connectBus(NATS_URL, 'operator', `t${randomBytes(5).toString('hex')}.`);
});
afterAll(async () => {
  await bus.close();
});

describe('the bus checks messages against the table', () => {
  it('runs strict in the test suite', () => {
    expect(process.env.BUS_STRICT).not.toBe('0');
    expect(strictSending()).toBe(true);
  });

  it('refuses to send a request, a fact or a job that breaks its entry, before it leaves', async () => {
    // @ts-expect-error the payload breaks the entry on purpose (its type says so too)
    await expect(request(bus.nc, BUS.walletHold, { accountId: 'acc_1' })).rejects.toBeInstanceOf(BusContractError);
    const failed = { recordingId: 'rec_1', jobId: 'job_1', step: 'transcribe', code: 'TOO_BAD', final: true } as const;
    // @ts-expect-error a failure code the table does not know (on one line: the directive covers the next line only)
    await expect(publish(bus, BUS.jobFailed, failed, 'x')).rejects.toThrow(/code/);
  });

  it('accepts every listed version and refuses one that is not', () => {
    expect(() => check(BUS.walletRelease, 'payload', { accountId: 'acc_1', reference: 'rec_1' }, 1)).not.toThrow();
    expect(() => check(BUS.walletRelease, 'payload', { accountId: 'acc_1', reference: 'rec_1' }, 2)).toThrow(
      /version 2 is not accepted/,
    );
    // Open objects: a newer sender's extra field passes an older receiver.
    expect(() =>
      check(BUS.walletRelease, 'payload', { accountId: 'acc_1', reference: 'rec_1', why: 'later field' }),
    ).not.toThrow();
    expect(() => check(BUS.walletRelease, 'reply', { captured: 'yes' })).toThrow(BusContractError);
  });
});
