import { readFileSync } from 'node:fs';
import { startStack, type Stack } from '../support/stack';
import { silence } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';

/**
 * "The service lets a few silent meetings a day fail for free, beyond which a silent meeting gets
 * an empty digest and is charged": one free silent meeting a day here.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ FREE_SILENT_MEETINGS_PER_DAY: '1', PIPELINE_AUTO_RETRIES: '0' }, { pipeline: true });
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });

describe('silent meetings', () => {
  it('fails the free ones with NO_SPEECH at no charge, then charges the next with an empty digest', async () => {
    const account = await stack.admin.account({ balanceMinutes: 10 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read', 'account:read']);
    const wav = readFileSync(await silence(4));
    const send = async () => {
      const res = await stack.api
        .post('/api/v1/recordings')
        .set(bearer(token.value))
        .field('naming', 'skip')
        .attach('audio', wav, { filename: 's.wav', contentType: 'audio/wav' });
      expect(res.status).toBe(202);
      return res.body.recording as { id: string; minutes: number };
    };
    const balance = async () =>
      (await stack.api.get('/api/v1/whoami').set(bearer(token.value))).body.wallet.balanceMinutes as number;

    const free = await send();
    const failed = await waitForStatus(stack, token.value, free.id, (s) => s === 'FAILED' || s === 'READY');
    expect(failed).toMatchObject({ status: 'FAILED', error: { code: 'NO_SPEECH', retryable: false } });
    expect(await balance()).toBe(10);

    const charged = await send();
    const ready = await waitForStatus(stack, token.value, charged.id, (s) => s === 'FAILED' || s === 'READY');
    expect(ready.status).toBe('READY');
    expect(await balance()).toBe(10 - charged.minutes);
    const bundle = (await stack.api.get(`/api/v1/recordings/${charged.id}/bundle`).set(bearer(token.value))).body;
    expect(bundle.transcript.segments).toEqual([]);
    expect(bundle.digest.content.find((s: { kind: string }) => s.kind === 'decision_list').items).toEqual([]);
    expect(bundle.stats).toMatchObject({ totalTurns: 0, speakers: [] });
  }, 120_000);
});
