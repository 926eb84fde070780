import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import type { BrowserContext } from 'playwright-core';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';
import { launchBrowser, signedInContext, type TestBrowser } from '../support/browser';
import { toneWav } from '../support/media';
import { waitForEvent } from '../support/wait';

/**
 * A deleted series' meetings move out of it (issue 29): the series service asks recordings over
 * the real bus (`seriesDeleted`) before its deletion commits, and the meetings (one in the trash
 * too) keep no series id or name. The contract sends no meeting event for a change to a series
 * itself, deletion included (Events, rule 5).
 */
let stack: Stack;
let tb: TestBrowser;
let owner: BrowserContext;
let pg: Client;
beforeAll(async () => {
  stack = await startStack();
  tb = await launchBrowser();
  pg = new Client({ connectionString: stack.env.DATABASE_URL });
  await pg.connect();
}, 60_000);
afterAll(async () => {
  await pg?.end();
  await tb?.close();
  await stack?.stop();
});

const seriesOf = async (id: string) =>
  (
    await pg.query(
      'select series_id, series_name, series_title_style, series_date_calendar from recordings.recording where id = $1',
      [id],
    )
  ).rows[0];

it("moves a deleted series' meetings out of it (trashed ones too), with no meeting event", async () => {
  const account = await stack.admin.account({ balanceMinutes: 30 });
  const token = await stack.admin.token(account.id, [
    'recordings:read',
    'recordings:write',
    'series:read',
    'series:write',
  ]);
  const auth = { Authorization: `Bearer ${token.value}` };
  const made = await stack.api
    .post('/api/v1/series')
    .set(auth)
    .send({ name: 'Board', titleStyle: 'SESSION', dateCalendar: 'GREGORIAN' });
  expect(made.status).toBe(201);
  const seriesId = made.body.series.id as string;
  const send = async () => {
    const r = await stack.api
      .post('/api/v1/recordings')
      .set(auth)
      .field('seriesId', seriesId)
      .attach('audio', readFileSync(toneWav(2)), { filename: 'a.wav', contentType: 'audio/wav' });
    expect(r.status).toBe(202);
    return r.body.recording.id as string;
  };
  const kept = await send();
  const trashed = await send();
  // Another series of the same owner is left alone.
  const other = await stack.api.post('/api/v1/series').set(auth).send({ name: 'Staff' });
  const otherId = other.body.series.id as string;
  const elsewhere = await stack.api
    .post('/api/v1/recordings')
    .set(auth)
    .field('seriesId', otherId)
    .attach('audio', readFileSync(toneWav(2)), { filename: 'a.wav', contentType: 'audio/wav' });
  expect(elsewhere.status).toBe(202);
  expect(
    (await stack.api.delete(`/admin/v1/recordings/${trashed}`).set({ Authorization: `Bearer ${ADMIN_KEY}` })).status,
  ).toBe(200);
  for (const id of [kept, trashed]) expect((await seriesOf(id)).series_name).toBe('Board');
  await waitForEvent(stack, token.value, trashed, 'recording.deleted');
  await waitForEvent(stack, token.value, kept, 'recording.created');
  await waitForEvent(stack, token.value, elsewhere.body.recording.id, 'recording.created');
  const eventsBefore = (await stack.api.get('/api/v1/events?limit=500').set(auth)).body.events.length as number;
  // The owner's read of the series' meetings copies its owner into recordings (series_owner).
  expect((await stack.api.get(`/api/v1/recordings/ready?seriesId=${seriesId}`).set(auth)).status).toBe(200);
  const copy = async () =>
    (await pg.query('select owner_id, deleted from recordings.series_owner where series_id = $1', [seriesId])).rows[0];
  expect(await copy()).toEqual({ owner_id: account.id, deleted: false });

  owner = await signedInContext(tb.browser, stack, account.id, 'owner@example.test');
  const page = await owner.newPage();
  await page.goto(`${stack.url}/app/series/${seriesId}`);
  await page.getByRole('checkbox', { name: 'Yes, delete this series' }).check();
  await page.getByRole('button', { name: 'Delete this series' }).click();
  await page.waitForURL(/\/app\/series\?deleted=1$/);
  expect((await stack.api.get(`/api/v1/series/${seriesId}`).set(auth)).status).toBe(404);
  // recordings no longer answers the owner from its copy: the series is gone there too.
  expect(await copy()).toEqual({ owner_id: account.id, deleted: true });
  const after = await stack.api.get(`/api/v1/recordings/ready?seriesId=${seriesId}`).set(auth);
  expect([after.status, after.body.error?.code]).toEqual([404, 'NOT_FOUND']);

  for (const id of [kept, trashed])
    expect(await seriesOf(id)).toEqual({
      series_id: null,
      series_name: null,
      series_title_style: null,
      series_date_calendar: null,
    });
  expect((await seriesOf(elsewhere.body.recording.id)).series_id).toBe(otherId);
  // Restored from the trash, the meeting comes back in no series.
  expect(
    (await stack.api.post(`/admin/v1/recordings/${trashed}/restore`).set({ Authorization: `Bearer ${ADMIN_KEY}` }))
      .status,
  ).toBe(200);
  expect((await seriesOf(trashed)).series_id).toBeNull();
  await waitForEvent(stack, token.value, trashed, 'recording.updated');
  // The only event since is the restore: the series' deletion sent nothing for its meetings.
  const events = (await stack.api.get('/api/v1/events?limit=500').set(auth)).body.events as {
    recordingId: string;
    type: string;
    data: { change?: string };
  }[];
  expect(events.slice(eventsBefore).map((e) => [e.recordingId, e.type, e.data.change])).toEqual([
    [trashed, 'recording.updated', 'restored'],
  ]);
}, 120_000);
