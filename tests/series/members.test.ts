import { readFileSync } from 'node:fs';
import { startStack, type Stack } from '../support/stack';
import { speakMeeting } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';
import { expectContract, expectError } from '../support/contract-response';

/**
 * A member reads a joined series' meetings through the series' meetingsUrl and the bundle, never
 * in its own plain list or its own events feed.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ NAMING_AUTO_WAIT_SECONDS: '1' }, { pipeline: true });
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const bearer = (value: string) => ({ Authorization: `Bearer ${value}` });

describe('reads of a member of a series', () => {
  let seriesId: string;
  let meetingId: string;
  let ownerToken: string;
  let memberToken: string;
  let memberId: string;

  beforeAll(async () => {
    const owner = await stack.admin.account({ displayName: 'Owner A' });
    ownerToken = (
      await stack.admin.token(owner.id, ['recordings:read', 'recordings:write', 'series:read', 'series:write'])
    ).value;
    seriesId = expectContract(
      'createSeries',
      await stack.api.post('/api/v1/series').set(bearer(ownerToken)).send({ name: 'Design crit', titleStyle: 'TOPIC' }),
      201,
    ).series.id;

    const spoken = await speakMeeting([
      ['awb', 'Hello team. The new logo is ready for review.'],
      ['slt', 'It looks great. We agreed to use it on the website.'],
    ]);
    const res = await stack.api
      .post('/api/v1/recordings')
      .set(bearer(ownerToken))
      .field('seriesId', seriesId)
      .field('title', 'Logo review')
      .field('naming', 'skip')
      .attach('audio', readFileSync(spoken.path), { filename: 'crit.wav', contentType: 'audio/wav' });
    meetingId = expectContract('submitRecording', res, 202).recording.id;
    const last = await waitForStatus(stack, ownerToken, meetingId, (s) => s === 'READY' || s === 'FAILED', 180_000);
    if (last.status !== 'READY') throw new Error(`meeting ended ${JSON.stringify(last)}`);

    const member = await stack.admin.account({ displayName: 'Member B' });
    memberId = member.id;
    const joined = await stack.admin.addSeriesMember(seriesId, member.id);
    expect(joined.status).toBe(200);
    memberToken = (await stack.admin.token(member.id, ['series:read', 'recordings:read'])).value;
  }, 240_000);

  it('lists the joined series in GET /series/readable with role member and meetingCount 1', async () => {
    const body = expectContract(
      'listReadableSeries',
      await stack.api.get('/api/v1/series/readable').set(bearer(memberToken)),
    );
    expect(body.items).toEqual([
      {
        id: seriesId,
        name: 'Design crit',
        role: 'member',
        meetingCount: 1,
        url: expect.stringContaining(`/series/${seriesId}`),
        meetingsUrl: expect.stringMatching(new RegExp(`/api/v1/recordings/ready\\?seriesId=${seriesId}$`)),
      },
    ]);
    const got = expectContract(
      'getSeries',
      await stack.api.get(`/api/v1/series/${seriesId}`).set(bearer(memberToken)),
    ).series;
    expect(got).toMatchObject({ id: seriesId, access: 'member', meetingCount: 1, lastRecordedAt: expect.any(String) });
  });

  it('reads the meeting through meetingsUrl, and meetingCount equals what it lists', async () => {
    const [item] = expectContract(
      'listReadableSeries',
      await stack.api.get('/api/v1/series/readable').set(bearer(memberToken)),
    ).items;
    const url = new URL(item.meetingsUrl);
    const page = expectContract(
      'listReadyRecordings',
      await stack.api.get(`${url.pathname}${url.search}`).set(bearer(memberToken)),
    );
    expect(page.items.map((i: { id: string }) => i.id)).toEqual([meetingId]);
    expect(page.items).toHaveLength(item.meetingCount);
    expect(page.items[0]).toMatchObject({
      title: 'Logo review',
      displayTitle: 'Logo review',
      series: { id: seriesId, name: 'Design crit' },
    });
  });

  it('reads the bundle with access member', async () => {
    const bundle = expectContract(
      'getRecordingBundle',
      await stack.api.get(`/api/v1/recordings/${meetingId}/bundle`).set(bearer(memberToken)),
    );
    expect(bundle.recording).toMatchObject({
      id: meetingId,
      title: 'Logo review',
      access: 'member',
      series: { id: seriesId, name: 'Design crit' },
    });
    expect(bundle.transcript.segments.length).toBeGreaterThan(0);
    const owner = expectContract(
      'getRecordingBundle',
      await stack.api.get(`/api/v1/recordings/${meetingId}/bundle`).set(bearer(ownerToken)),
    );
    expect(owner.recording.access).toBe('owner');
  });

  it("reads the meeting's status like its bundle; a write-only token of the member does not reach it", async () => {
    const status = expectContract(
      'getRecordingStatus',
      await stack.api.get(`/api/v1/recordings/${meetingId}/status`).set(bearer(memberToken)),
    );
    expect(status).toMatchObject({ id: meetingId, status: 'READY' });
    const writer = (await stack.admin.token(memberId, ['recordings:write'])).value;
    expectError(await stack.api.get(`/api/v1/recordings/${meetingId}/status`).set(bearer(writer)), 404, 'NOT_FOUND');
    // Skip and retry never reach a joined series' meetings (contract).
    expectError(
      await stack.api
        .post(`/api/v1/recordings/${meetingId}/retry`)
        .set(bearer((await stack.admin.token(memberId, ['recordings:write', 'recordings:read'])).value)),
      404,
      'NOT_FOUND',
    );
  });

  it("does not show the meeting in the member's own plain list", async () => {
    const page = expectContract(
      'listReadyRecordings',
      await stack.api.get('/api/v1/recordings/ready').set(bearer(memberToken)),
    );
    expect(page.items).toEqual([]);
    expect(page.nextCursor).toBeNull();
  });

  it("does not show the meeting in the member's own events feed, while the owner's feed has it", async () => {
    const memberFeed = expectContract('listEvents', await stack.api.get('/api/v1/events').set(bearer(memberToken)));
    expect(memberFeed.events).toEqual([]);
    const ownerFeed = expectContract('listEvents', await stack.api.get('/api/v1/events').set(bearer(ownerToken)));
    expect(ownerFeed.events.map((e: { type: string }) => e.type)).toContain('recording.ready');
  });

  it('gives the member no owner rights: updateSeries, the series keyterms and filing a meeting in it answer 404', async () => {
    const writer = (await stack.admin.token(memberId, ['series:write', 'series:read'])).value;
    expectError(
      await stack.api.patch(`/api/v1/series/${seriesId}`).set(bearer(writer)).send({ name: 'Mine' }),
      404,
      'NOT_FOUND',
    );
    expectError(await stack.api.get(`/api/v1/series/${seriesId}/keyterms`).set(bearer(memberToken)), 404, 'NOT_FOUND');
    // Filing a meeting in the series is the owner's too (openapi: "one of the caller's own series").
    const sender = (await stack.admin.token(memberId, ['recordings:write'])).value;
    const spoken = await speakMeeting([['awb', 'A meeting of my own.']]);
    expectError(
      await stack.api
        .post('/api/v1/recordings')
        .set(bearer(sender))
        .field('seriesId', seriesId)
        .attach('audio', readFileSync(spoken.path), { filename: 'mine.wav', contentType: 'audio/wav' }),
      404,
      'NOT_FOUND',
    );
  });

  it('hides the series and its meetings from an account that did not join', async () => {
    const stranger = await stack.admin.account();
    const token = (await stack.admin.token(stranger.id, ['series:read', 'recordings:read'])).value;
    expect(
      expectContract('listReadableSeries', await stack.api.get('/api/v1/series/readable').set(bearer(token))).items,
    ).toEqual([]);
    expectError(
      await stack.api.get('/api/v1/recordings/ready').query({ seriesId }).set(bearer(token)),
      404,
      'NOT_FOUND',
    );
    expectError(await stack.api.get(`/api/v1/recordings/${meetingId}/bundle`).set(bearer(token)), 404, 'NOT_FOUND');
    expectError(await stack.api.get(`/api/v1/recordings/${meetingId}/status`).set(bearer(token)), 404, 'NOT_FOUND');
  });
});
