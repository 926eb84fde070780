import { readFileSync } from 'node:fs';
import { startStack, type Stack } from '../support/stack';
import { speakMeeting, type SpokenMeeting } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';
import { expectContract } from '../support/contract-response';

/**
 * SESSION titles through the gateway with the real pipeline: series name plus the meeting date in
 * the series' calendar, the meeting's own title beneath; and the series' meeting stats.
 */
let stack: Stack;
let spoken: SpokenMeeting;
let token: string;
let auth: { Authorization: string };

beforeAll(async () => {
  stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1' }, { pipeline: true });
  spoken = await speakMeeting([
    ['slt', 'Good morning. The budget review is finished.'],
    ['rms', 'Thank you. We decided to ship the release on Friday.'],
  ]);
  const account = await stack.admin.account({ balanceMinutes: 100 });
  token = (await stack.admin.token(account.id, ['recordings:read', 'recordings:write', 'series:read', 'series:write']))
    .value;
  auth = { Authorization: `Bearer ${token}` };
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

async function newSeries(body: Record<string, unknown>): Promise<{ id: string; name: string }> {
  return expectContract('createSeries', await stack.api.post('/api/v1/series').set(auth).send(body), 201).series;
}

/** Sends the spoken meeting with these form fields (naming skipped) and waits until it is READY. */
async function readyMeeting(fields: Record<string, string>): Promise<string> {
  let req = stack.api.post('/api/v1/recordings').set(auth).field('naming', 'skip');
  for (const [k, v] of Object.entries(fields)) req = req.field(k, v);
  const res = await req.attach('audio', readFileSync(spoken.path), {
    filename: 'meeting.wav',
    contentType: 'audio/wav',
  });
  const id = expectContract('submitRecording', res, 202).recording.id as string;
  const last = await waitForStatus(stack, token, id, (s) => s === 'READY' || s === 'FAILED', 180_000);
  if (last.status !== 'READY') throw new Error(`meeting ${id} ended ${JSON.stringify(last)}`);
  return id;
}

async function listItem(id: string, seriesId?: string) {
  const body = expectContract(
    'listReadyRecordings',
    await stack.api
      .get('/api/v1/recordings/ready')
      .query(seriesId ? { seriesId } : {})
      .set(auth),
  );
  return body.items.find((i: { id: string }) => i.id === id);
}

async function bundleRecording(id: string) {
  return expectContract('getRecordingBundle', await stack.api.get(`/api/v1/recordings/${id}/bundle`).set(auth))
    .recording;
}

describe('displayTitle and subtitle of meetings in a series', () => {
  let autoSeries: { id: string; name: string };
  const meetings: Record<string, string> = {};

  beforeAll(async () => {
    autoSeries = await newSeries({ name: 'Weekly sync', titleStyle: 'SESSION', dateCalendar: 'AUTO' });
    const gregorian = await newSeries({ name: 'Planning', titleStyle: 'SESSION', dateCalendar: 'GREGORIAN' });
    const topic = await newSeries({ name: 'Lectures', titleStyle: 'TOPIC', dateCalendar: 'JALALI' });
    const nowruz = { recordedAt: '2024-03-20T10:00:00Z', outputLanguage: 'FA' };
    // One pipeline run each; they overlap, the pipeline takes them in turn.
    const ids = await Promise.all([
      readyMeeting({ ...nowruz, seriesId: autoSeries.id, title: 'Budget review' }),
      readyMeeting({
        recordedAt: '2025-03-20T10:00:00Z',
        outputLanguage: 'FA',
        seriesId: autoSeries.id,
        title: 'Leap day',
      }),
      readyMeeting({
        recordedAt: '2023-03-21T10:00:00Z',
        outputLanguage: 'EN',
        seriesId: autoSeries.id,
        title: 'English notes',
      }),
      readyMeeting({ ...nowruz, seriesId: gregorian.id, title: 'Roadmap' }),
      readyMeeting({ ...nowruz, seriesId: topic.id, title: 'First lecture' }),
    ]);
    [meetings.nowruz, meetings.leapDay, meetings.english, meetings.gregorian, meetings.topic] = ids;
  }, 400_000);

  it('shows the series name plus the Solar Hijri date for a Persian digest under AUTO, the own title as subtitle', async () => {
    const item = await listItem(meetings.nowruz, autoSeries.id);
    expect(item).toMatchObject({
      title: 'Budget review',
      displayTitle: 'Weekly sync ۱۴۰۳/۰۱/۰۱',
      series: { id: autoSeries.id, name: 'Weekly sync' },
    });
    expect(await listItem(meetings.nowruz)).toMatchObject({ displayTitle: 'Weekly sync ۱۴۰۳/۰۱/۰۱' });
    const rec = await bundleRecording(meetings.nowruz);
    expect(rec).toMatchObject({
      title: 'Budget review',
      displayTitle: 'Weekly sync ۱۴۰۳/۰۱/۰۱',
      subtitle: 'Budget review',
      access: 'owner',
    });
    const md = await stack.api.get(`/api/v1/recordings/${meetings.nowruz}/bundle?format=markdown`).set(auth);
    expect(md.text.startsWith('# Weekly sync ۱۴۰۳/۰۱/۰۱\n\n_Budget review_\n')).toBe(true);
  });

  it('shows Esfand 30 of the leap year 1403 for 2025-03-20', async () => {
    expect(await listItem(meetings.leapDay, autoSeries.id)).toMatchObject({
      title: 'Leap day',
      displayTitle: 'Weekly sync ۱۴۰۳/۱۲/۳۰',
    });
    expect(await bundleRecording(meetings.leapDay)).toMatchObject({
      displayTitle: 'Weekly sync ۱۴۰۳/۱۲/۳۰',
      subtitle: 'Leap day',
    });
  });

  it('shows the Gregorian date under AUTO when the digest is English', async () => {
    expect(await listItem(meetings.english, autoSeries.id)).toMatchObject({ displayTitle: 'Weekly sync 2023-03-21' });
    expect(await bundleRecording(meetings.english)).toMatchObject({
      displayTitle: 'Weekly sync 2023-03-21',
      subtitle: 'English notes',
    });
  });

  it('shows 2024-03-20 in a GREGORIAN series even with a Persian digest', async () => {
    expect(await listItem(meetings.gregorian)).toMatchObject({ title: 'Roadmap', displayTitle: 'Planning 2024-03-20' });
    expect(await bundleRecording(meetings.gregorian)).toMatchObject({
      title: 'Roadmap',
      displayTitle: 'Planning 2024-03-20',
      subtitle: 'Roadmap',
    });
  });

  it('keeps the own title in a TOPIC series, with no subtitle', async () => {
    expect(await listItem(meetings.topic)).toMatchObject({ title: 'First lecture', displayTitle: 'First lecture' });
    expect(await bundleRecording(meetings.topic)).toMatchObject({
      title: 'First lecture',
      displayTitle: 'First lecture',
      subtitle: null,
    });
  });

  it('counts the finished meetings in getSeries and listReadableSeries, with the newest recordedAt', async () => {
    const got = expectContract('getSeries', await stack.api.get(`/api/v1/series/${autoSeries.id}`).set(auth)).series;
    expect(got).toMatchObject({ meetingCount: 3, lastRecordedAt: '2025-03-20T10:00:00.000Z' });
    const items = expectContract('listReadableSeries', await stack.api.get('/api/v1/series/readable').set(auth)).items;
    expect(items.map((i: { name: string; meetingCount: number }) => [i.name, i.meetingCount])).toEqual([
      ['Lectures', 1],
      ['Planning', 1],
      ['Weekly sync', 3],
    ]);
    const patched = expectContract(
      'updateSeries',
      await stack.api.patch(`/api/v1/series/${autoSeries.id}`).set(auth).send({ defaultKind: 'LECTURE' }),
    ).series;
    expect(patched).toMatchObject({
      defaultKind: 'LECTURE',
      meetingCount: 3,
      lastRecordedAt: '2025-03-20T10:00:00.000Z',
    });
  });

  it('stops counting a deleted meeting, and lastRecordedAt falls back to the newest left', async () => {
    const { api, auth: admin } = stack.admin.raw();
    expect((await api.delete(`/admin/v1/recordings/${meetings.leapDay}`).set(admin)).status).toBe(200);
    const got = expectContract('getSeries', await stack.api.get(`/api/v1/series/${autoSeries.id}`).set(auth)).series;
    expect(got).toMatchObject({ meetingCount: 2, lastRecordedAt: '2024-03-20T10:00:00.000Z' });
    const listed = expectContract(
      'listReadyRecordings',
      await stack.api.get('/api/v1/recordings/ready').query({ seriesId: autoSeries.id }).set(auth),
    );
    expect(listed.items).toHaveLength(2);
  });
});
