import { readFileSync } from 'node:fs';
import { createAjv } from '@mm/http';
import { ROUTES } from '@mm/contract';
import { startStack, type Stack } from '../support/stack';
import { speakMeeting } from '../support/speak-meeting';
import { waitForStatus } from '../support/wait';

let stack: Stack;
let reader: string;
let querier: string;
const ids: string[] = [];

const ajv = createAjv();
const pageSchema = ajv.compile(ROUTES.find((r) => r.operationId === 'searchRecordings')!.responses[0].schema);
const search = (token: string, query: Record<string, string>) =>
  stack.api.get('/api/v1/recordings/search').query(query).set('Authorization', `Bearer ${token}`);

beforeAll(async () => {
  stack = await startStack({}, { pipeline: true });
  const account = await stack.admin.account();
  reader = (await stack.admin.token(account.id, ['recordings:read', 'recordings:write', 'recordings:query'])).value;
  querier = (await stack.admin.token(account.id, ['recordings:query'])).value;
  const meetings: [string, string, string][] = [
    ['برنامه‌ریزی ۱۴۰۳ sync', '2024-03-20T10:00:00Z', 'We decided to ship the release on Friday.'],
    ['Budget review sync', '2024-05-01T10:00:00Z', 'The budget for the marketing team is approved.'],
  ];
  for (const [title, recordedAt, text] of meetings) {
    const spoken = await speakMeeting([
      ['slt', text],
      ['rms', 'Thank you everyone.'],
    ]);
    const res = await stack.api
      .post('/api/v1/recordings')
      .set('Authorization', `Bearer ${reader}`)
      .field('title', title)
      .field('recordedAt', recordedAt)
      .field('naming', 'skip')
      .attach('audio', readFileSync(spoken.path), { filename: 'm.wav', contentType: 'audio/wav' });
    ids.push(res.body.recording.id);
  }
  for (const id of ids) await waitForStatus(stack, reader, id, (s) => s === 'READY', 180_000);
}, 300_000);
afterAll(async () => {
  await stack.stop();
});

describe('GET /recordings/search', () => {
  it('finds meetings by words of the transcript, ignoring case, with a snippet', async () => {
    const res = await search(querier, { q: 'BUDGET' });
    expect(res.status).toBe(200);
    expect(pageSchema(res.body)).toBe(true);
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([ids[1]]);
    expect(res.body.items[0].snippet.toLowerCase()).toContain('budget');
    expect(res.body.items[0].bundleUrl).toMatch(/\/bundle$/);
  });

  it('matches a Persian title with Arabic letter forms, no half-space and Latin digits; snippet null for a title-only match', async () => {
    const res = await search(querier, { q: 'برنامهريزي 1403' });
    expect(res.body.items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect(res.body.items[0].snippet).toBeNull();
  });

  it('needs every word, orders newest first by recordedAt, and filters by window and kind', async () => {
    expect((await search(querier, { q: 'budget nonexistentword' })).body.items).toEqual([]);
    const both = await search(querier, { q: 'SYNC' });
    expect(both.body.items.map((i: { id: string }) => i.id)).toEqual([ids[1], ids[0]]);
    const windowed = await search(querier, {
      q: 'SYNC',
      from: '2024-03-01T00:00:00+00:00',
      to: '2024-03-31T00:00:00+00:00',
    });
    expect(windowed.body.items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect((await search(querier, { q: 'SYNC', kind: 'LECTURE' })).body.items).toEqual([]);
    const first = await search(querier, { q: 'SYNC', limit: '1' });
    const second = await search(querier, { q: 'SYNC', limit: '1', cursor: first.body.nextCursor });
    expect(second.body.items.map((i: { id: string }) => i.id)).toEqual([ids[0]]);
    expect(second.body.nextCursor).toBeNull();
  });

  it('answers 400 VALIDATION for a q with no word, an unknown parameter and a bad cursor; 404 for an unreadable series', async () => {
    for (const query of [
      { q: '   ' },
      { q: 'x', sort: 'asc' },
      { q: 'x', cursor: 'nope' },
      { q: 'x'.repeat(201) },
      { q: 'x', limit: '51' },
    ] as Record<string, string>[]) {
      const res = await search(querier, query);
      expect([res.status, res.body.error.code]).toEqual([400, 'VALIDATION']);
    }
    expect((await search(querier, { q: 'x', seriesId: 'ser_missing' })).status).toBe(404);
    expect((await search(reader, { q: 'budget' })).status).toBe(200);
  });
});
