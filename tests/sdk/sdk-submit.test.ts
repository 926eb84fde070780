import { createReadStream } from 'node:fs';
import { MeetingMemory, MmApiError } from '@mm/sdk';
import { startStack, type Stack } from '../support/stack';
import { speakMeeting } from '../support/speak-meeting';

/** The SDK against the real gateway: one Idempotency-Key per submit, kept across retries. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const SHORT: Parameters<typeof speakMeeting>[0] = [['slt', 'Short check of the client.'], ['rms', 'We decided to ship it.']];

describe('submitRecording', () => {
  it('resends the same Idempotency-Key when the reply was lost: one meeting, held once', async () => {
    const spoken = await speakMeeting(SHORT);
    const account = await stack.admin.account({ balanceMinutes: 100 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'account:read']);
    const keys: (string | null)[] = [];
    let lostId: string | undefined;
    const dropFirstReply: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (init?.method === 'POST') {
        keys.push(new Headers(init.headers).get('idempotency-key'));
        if (keys.length === 1) {
          lostId = ((await res.json()) as { recording: { id: string } }).recording.id;
          throw new TypeError('fetch failed: the reply was lost');
        }
      }
      return res;
    };
    const mm = new MeetingMemory({ url: stack.url, token: token.value, fetch: dropFirstReply, retry: { baseDelayMs: 10 } });
    let uploaded = 0;
    const result = await mm.submitRecording({ audio: spoken.path, contentType: 'audio/wav', title: 'SDK', onUploadProgress: (sent) => (uploaded = sent) });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(result.recording.id).toBe(lostId);
    expect(uploaded).toBeGreaterThan(spoken.durationMs * 16); // 16 kHz, 16 bit: the whole file went
    const who = await new MeetingMemory({ url: stack.url, token: token.value }).whoami();
    expect(who.token.usedMinutes24h).toBe(result.recording.minutes);
  });

  it('sends a stream and answers typed errors with the contract\'s code', async () => {
    const spoken = await speakMeeting(SHORT);
    const account = await stack.admin.account({ balanceMinutes: 100 });
    const reader = await stack.admin.token(account.id, ['recordings:read']);
    const mm = new MeetingMemory({ url: stack.url, token: reader.value });
    const err = await mm.submitRecording({ audio: createReadStream(spoken.path) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MmApiError);
    expect(err).toMatchObject({ status: 403, code: 'TOKEN_SCOPE' });
    const writer = await stack.admin.token(account.id, ['recordings:write']);
    const ok = await new MeetingMemory({ url: stack.url, token: writer.value }).submitRecording({ audio: createReadStream(spoken.path) });
    expect(ok.recording.status).toBe('QUEUED');
    await expect(new MeetingMemory({ url: stack.url, token: writer.value }).status('nope')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});
