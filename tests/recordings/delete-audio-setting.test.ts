import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import { APP_INTERNAL_ROUTES } from '@mm/contract';
import { PRINCIPAL_HEADER } from '@mm/http';
import { principalFor } from '../support/app-principal';
import { speakMeeting } from '../support/speak-meeting';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';
import { waitForStatus } from '../support/wait';

/**
 * The app's setting "delete each meeting's audio once its digest is ready" (the contract keeps it
 * to the app): off by default; on, a meeting's audio is gone once it is READY, its transcript and
 * digest stay, the app's player and "check again" follow, and GET /account never shows it.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({}, { pipeline: true });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const settingsRoute = APP_INTERNAL_ROUTES.find((r) => r.operationId === 'appGetSettings')!;
const settingsValid = new Ajv({ strict: false }).compile(settingsRoute.responses[0]!.schema);

const atService = async (principal: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${stack.serviceUrls.account}${path}`, {
    method,
    headers: { [PRINCIPAL_HEADER]: principal, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};
const sheetOf = async (principal: string, id: string) => {
  const res = await fetch(`${stack.serviceUrls.recordings}/internal/app/recordings/${id}/sheet`, {
    headers: { [PRINCIPAL_HEADER]: principal },
  });
  return (await res.json()) as { audio: boolean };
};
const audioStatus = async (principal: string, id: string) =>
  (
    await fetch(`${stack.serviceUrls.recordings}/internal/app/recordings/${id}/audio`, {
      headers: { [PRINCIPAL_HEADER]: principal },
    })
  ).status;

async function readyMeeting(token: string): Promise<string> {
  const spoken = await speakMeeting([
    ['slt', 'We decided to move the launch to Thursday.'],
    ['rms', 'Thank you, that works for me.'],
  ]);
  const res = await stack.api
    .post('/api/v1/recordings')
    .set('Authorization', `Bearer ${token}`)
    .field('naming', 'skip')
    .attach('audio', readFileSync(spoken.path), { filename: 'm.wav', contentType: 'audio/wav' });
  expect(res.status).toBe(202);
  const id = res.body.recording.id as string;
  await waitForStatus(stack, token, id, (s) => s === 'READY', 180_000);
  return id;
}

it("deletes a meeting's audio once it is READY where the owner asks, keeps it otherwise; the rest of the meeting stays", async () => {
  const asks = await stack.admin.account({ balanceMinutes: 30 });
  const keeps = await stack.admin.account({ balanceMinutes: 30 });
  const scopes = ['recordings:read', 'recordings:write', 'account:read'];
  const asksToken = (await stack.admin.token(asks.id, scopes)).value;
  const keepsToken = (await stack.admin.token(keeps.id, scopes)).value;
  const asksApp = await principalFor(stack, asks.id, 'app');
  const keepsApp = await principalFor(stack, keeps.id, 'app');

  // Off by default; the app turns it on; a token's principal cannot; GET /account never shows it.
  const before = await atService(asksApp, 'GET', '/app/settings');
  expect([before.status, settingsValid(before.body), before.body.settings.deleteAudioAfterDigest]).toEqual([
    200,
    true,
    false,
  ]);
  const set = await atService(asksApp, 'PATCH', '/app/settings', { deleteAudioAfterDigest: true });
  expect([set.status, set.body.settings.deleteAudioAfterDigest]).toEqual([200, true]);
  const byToken = await atService(
    await principalFor(stack, asks.id, 'token', { scopes: ['account:write'] }),
    'PATCH',
    '/app/settings',
    {
      deleteAudioAfterDigest: false,
    },
  );
  expect([byToken.status, byToken.body.error?.code]).toEqual([401, 'TOKEN_NOT_ACCEPTED']);
  const account = await stack.api.get('/api/v1/account').set('Authorization', `Bearer ${asksToken}`);
  expect(Object.keys(account.body.settings).sort()).toEqual([
    'memoryLearningEnabled',
    'speakerNamingMode',
    'summaryEmailEnabled',
    'uiLocale',
  ]);

  const [gone, kept] = await Promise.all([readyMeeting(asksToken), readyMeeting(keepsToken)]);

  // The audio goes just after READY (outside the meeting's transaction): wait for it.
  const until = Date.now() + 10_000;
  while ((await sheetOf(asksApp, gone)).audio && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
  expect((await sheetOf(asksApp, gone)).audio).toBe(false);
  expect(await audioStatus(asksApp, gone)).toBe(404);
  const bundle = await stack.api.get(`/api/v1/recordings/${gone}/bundle`).set('Authorization', `Bearer ${asksToken}`);
  expect(bundle.status).toBe(200);
  expect(bundle.body.transcript.segments.length).toBeGreaterThan(0);
  expect(bundle.body.digest.content.length).toBeGreaterThan(0);
  // "Check again" would transcribe the audio again: refused, and the meeting stays READY.
  const recheck = await stack.api
    .post(`/admin/v1/recordings/${gone}/recheck`)
    .set('Authorization', `Bearer ${ADMIN_KEY}`);
  expect([recheck.status, recheck.body.error?.code]).toEqual([400, 'VALIDATION']);
  expect(recheck.body.error.message).toMatch(/keeps no audio/);
  expect(
    (await stack.api.get(`/api/v1/recordings/${gone}/status`).set('Authorization', `Bearer ${asksToken}`)).body.status,
  ).toBe('READY');

  // The other account's meeting keeps its audio.
  expect((await sheetOf(keepsApp, kept)).audio).toBe(true);
  expect(await audioStatus(keepsApp, kept)).toBe(200);
}, 300_000);
