import { readFileSync } from 'node:fs';
import { startStack, type Stack } from '../support/stack';
import { videoWithAudio } from '../support/media';

/** With ffmpeg gone (FFMPEG_PATH names nothing), audio cannot be taken out of a video. */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ FFMPEG_PATH: '/nonexistent/ffmpeg' });
});
afterAll(async () => {
  await stack.stop();
});

it('answers 503 VIDEO_UNAVAILABLE when audio cannot be taken from a video right now, and holds nothing', async () => {
  const account = await stack.admin.account({ balanceMinutes: 5 });
  const token = await stack.admin.token(account.id, ['recordings:write', 'account:read']);
  const res = await stack.api
    .post('/api/v1/recordings')
    .set('Authorization', `Bearer ${token.value}`)
    .attach('audio', readFileSync(videoWithAudio(3)), { filename: 'v.mp4', contentType: 'video/mp4' });
  expect([res.status, res.body.error.code]).toEqual([503, 'VIDEO_UNAVAILABLE']);
  const who = await stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token.value}`);
  expect(who.body.wallet.balanceMinutes).toBe(5);
  expect(who.body.token.usedMinutes24h).toBe(0);
});
