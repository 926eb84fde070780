import { readFileSync } from 'node:fs';
import { startStack, type Stack } from '../support/stack';
import { speakMeeting } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({}, { pipeline: true });
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

it("shows a series' new name and title style on its meetings after the series changes", async () => {
  const account = await stack.admin.account();
  const token = await stack.admin.token(account.id, [
    'recordings:read',
    'recordings:write',
    'series:read',
    'series:write',
  ]);
  const auth = { Authorization: `Bearer ${token.value}` };
  const series = await stack.api
    .post('/api/v1/series')
    .set(auth)
    .send({ name: 'Planning', titleStyle: 'SESSION', dateCalendar: 'GREGORIAN' });
  expect(series.status).toBe(201);
  const seriesId = series.body.series.id as string;
  const spoken = await speakMeeting([
    ['slt', 'We decided to ship the release on Friday.'],
    ['rms', 'I will write the notes.'],
  ]);
  const res = await stack.api
    .post('/api/v1/recordings')
    .set(auth)
    .field('seriesId', seriesId)
    .field('naming', 'skip')
    .field('title', 'Release')
    .field('recordedAt', '2024-03-20T10:00:00Z')
    .attach('audio', readFileSync(spoken.path), { filename: 'm.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  await waitForStatus(stack, token.value, res.body.recording.id, (s) => s === 'READY', 180_000);
  const before = await stack.api.get('/api/v1/recordings/ready').set(auth);
  expect(before.body.items[0]).toMatchObject({
    displayTitle: 'Planning 2024-03-20',
    series: { id: seriesId, name: 'Planning' },
  });
  expect(
    (await stack.api.patch(`/api/v1/series/${seriesId}`).set(auth).send({ name: 'Roadmap', titleStyle: 'TOPIC' }))
      .status,
  ).toBe(200);
  const after = await stack.api.get('/api/v1/recordings/ready').set(auth);
  expect(after.body.items[0]).toMatchObject({ displayTitle: 'Release', series: { id: seriesId, name: 'Roadmap' } });
}, 240_000);
