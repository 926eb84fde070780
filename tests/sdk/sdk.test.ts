import { createReadStream } from 'node:fs';
import { MeetingMemory, MmApiError } from '@mm/sdk';
import { startStack, type Stack } from '../support/stack';
import { CursorCodec } from '../../services/events/src/domain/feed-cursor';
import { loadConfig as eventsConfig } from '../../services/events/src/config';
import { speakMeeting } from '../support/speak-meeting';
import { waitForEvent } from '../support/wait';

/** The SDK against the real gateway and engines: submit with one key across retries, wait, follow the feed. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1' }, { pipeline: true });
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const SHORT: Parameters<typeof speakMeeting>[0] = [
  ['slt', 'Short check of the client.'],
  ['rms', 'We decided to ship it.'],
];

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
    const mm = new MeetingMemory({
      url: stack.url,
      token: token.value,
      fetch: dropFirstReply,
      retry: { baseDelayMs: 10 },
    });
    let uploaded = 0;
    const result = await mm.submitRecording({
      audio: spoken.path,
      contentType: 'audio/wav',
      title: 'SDK',
      onUploadProgress: (sent) => (uploaded = sent),
    });
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(result.recording.id).toBe(lostId);
    expect(uploaded).toBeGreaterThan(spoken.durationMs * 16); // 16 kHz, 16 bit: the whole file went
    const who = await new MeetingMemory({ url: stack.url, token: token.value }).whoami();
    expect(who.token.usedMinutes24h).toBe(result.recording.minutes);
  });

  it("sends a stream and answers typed errors with the contract's code", async () => {
    const spoken = await speakMeeting(SHORT);
    const account = await stack.admin.account({ balanceMinutes: 100 });
    const reader = await stack.admin.token(account.id, ['recordings:read']);
    const mm = new MeetingMemory({ url: stack.url, token: reader.value });
    const err = await mm.submitRecording({ audio: createReadStream(spoken.path) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MmApiError);
    expect(err).toMatchObject({ status: 403, code: 'TOKEN_SCOPE' });
    const writer = await stack.admin.token(account.id, ['recordings:write']);
    const ok = await new MeetingMemory({ url: stack.url, token: writer.value }).submitRecording({
      audio: createReadStream(spoken.path),
    });
    expect(ok.recording.status).toBe('QUEUED');
    await expect(new MeetingMemory({ url: stack.url, token: writer.value }).status('nope')).rejects.toMatchObject({
      code: 'NOT_FOUND',
    });
  });
});

describe('waitForReady and followEvents', () => {
  it('waits with progress until READY, and recovers from 410 CURSOR_EXPIRED with after=latest and the READY list', async () => {
    const account = await stack.admin.account({ balanceMinutes: 100 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read']);
    const mm = new MeetingMemory({ url: stack.url, token: token.value });
    const { recording } = await mm.submitRecording({ audio: (await speakMeeting(SHORT)).path, naming: 'skip' });
    const seen: string[] = [];
    const final = await mm.waitForReady(recording.id, {
      schedule: { firstMs: 200, maxMs: 1000 },
      onProgress: (s) => seen.push(s.status),
    });
    expect(final.status).toBe('READY');
    expect(seen.at(-1)).toBe('READY');
    // The feed is written after the status (outbox, then the events consumer): once it holds the
    // READY event, a cursor taken at `latest` is past every event of this meeting.
    await waitForEvent(stack, token.value, recording.id, 'recording.ready');

    const codec = new CursorCodec(eventsConfig(stack.env).internalJwtSecret);
    const expired = codec.encode({ seq: 1n, at: Date.now() - 31 * 24 * 3600 * 1000 });
    const items = [];
    for await (const item of mm.followEvents({ after: expired, untilCaughtUp: true })) items.push(item);
    expect(items[0]).toMatchObject({ kind: 'resync' });
    const resync = items[0] as Extract<(typeof items)[number], { kind: 'resync' }>;
    expect(resync.ready.map((r) => r.id)).toEqual([recording.id]);
    // Read on from the new cursor: nothing from before it comes again.
    expect(items.slice(1).filter((i) => i.kind === 'event' && i.event.type === 'recording.created')).toEqual([]);
    const fresh = await mm.listEvents({ after: resync.cursor });
    expect(fresh.events).toEqual([]);
  }, 120_000);
});
