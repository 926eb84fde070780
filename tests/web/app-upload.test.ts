import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { launchBrowser, seriousViolations, signedInContext, type TestBrowser } from '../support/browser';
import { toneWav } from '../support/media';

/**
 * Issue 29: upload and record in the browser. The page sends the file in pieces to the app,
 * which sends it whole to the recordings service with the page's Idempotency-Key; the rules
 * (limits, refusals, one meeting per key) are the service's, shown in the page.
 */
describe('the app: upload and record in the browser (real browser)', () => {
  let stack: Stack;
  let tb: TestBrowser;
  let token: TestToken;
  let owner: BrowserContext;
  let page: Page;
  let accountId: string;
  const bearer = () => ({ Authorization: `Bearer ${token.value}` });
  /** The meetings the feed says were made, by id. */
  const created = async () => {
    const res = await stack.api.get('/api/v1/events?limit=500').set(bearer());
    return (res.body.events as { type: string; recordingId: string }[])
      .filter((e) => e.type === 'recording.created')
      .map((e) => e.recordingId);
  };
  /**
   * The feed's `recording.created` events once it holds at least `n` (the outbox and the feed's
   * consumer deliver in their own time), and a moment longer, so that one too many would show.
   */
  const createdWhen = async (n: number) => {
    const until = Date.now() + 15_000;
    let ids = await created();
    while (ids.length < n && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      ids = await created();
    }
    await new Promise((r) => setTimeout(r, 500));
    return created();
  };
  const meetingIdOf = (url: string) => /\/app\/recordings\/([^/?#]+)/.exec(url)![1];

  beforeAll(async () => {
    // A small upload limit (1 MB), so that "too large" is cheap to reach.
    stack = await startStack({ MAX_UPLOAD_MB: '1' });
    tb = await launchBrowser(['--use-fake-device-for-media-stream', '--use-fake-ui-for-media-stream']);
    const account = await stack.admin.account({ displayName: 'Parisa', balanceMinutes: 100 });
    accountId = account.id;
    token = await stack.admin.token(account.id, ['recordings:read']);
    owner = await signedInContext(tb.browser, stack, account.id, 'parisa@example.test');
    page = await owner.newPage();
    await page.setViewportSize({ width: 375, height: 800 });
  }, 60_000);
  afterAll(async () => {
    await tb?.close();
    await stack?.stop();
  });

  it('drops a file on the page: the price before sending, the progress, then the meeting (one recording.created)', async () => {
    await page.goto(`${stack.url}/app/upload`);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Upload or record a meeting');
    // The kinds by their names, as the Meetings filter says them; the form sends the values.
    await expect(page.locator('select[name=kind] option').allTextContents()).resolves.toEqual([
      'Meeting',
      'Lecture',
      'Interview',
      'Voice memo',
      'Call',
    ]);
    await expect(page.locator('select[name=kind]').inputValue()).resolves.toBe('MEETING');
    const wav = readFileSync(toneWav(3)).toString('base64');
    // A real drop: a DataTransfer holding the file, dispatched on the drop zone.
    await page.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], 'standup.wav', { type: 'audio/wav' }));
      const zone = document.getElementById('dropzone')!;
      zone.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, bubbles: true, cancelable: true }));
      zone.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, wav);
    await page.locator('#price[data-minutes]').waitFor();
    await expect(page.locator('#price').textContent()).resolves.toBe('1 minute');
    await page.getByLabel('Use my keyterms (20% more)').check();
    await expect(page.locator('#price').textContent()).resolves.toBe('2 minutes');
    await page.getByLabel('Use my keyterms (20% more)').uncheck();
    await page.getByLabel('Title (optional)').fill('Dropped standup');
    // The digest language: the contract's values by name, the meeting's own first (the service's default).
    await expect(page.getByLabel('Digest language').locator('option').allTextContents()).resolves.toEqual([
      "The meeting's own language",
      'Persian',
      'English',
    ]);
    await page.getByLabel('Digest language').selectOption({ label: 'English' });
    const sends: Record<string, unknown>[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && /\/app\/uploads\/[^/]+\/send$/.test(r.url())) sends.push(r.postDataJSON());
    });
    // Pieces go one by one: the progress bar moves before the meeting opens.
    const pieces: number[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT' && r.url().includes('/app/uploads/'))
        pieces.push(Number(new URL(r.url()).searchParams.get('offset')));
    });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/app\/recordings\/[^/]+$/);
    expect(sends).toEqual([expect.objectContaining({ outputLanguage: 'EN', title: 'Dropped standup' })]);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces[0]).toBe(0);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Dropped standup');
    const id = meetingIdOf(page.url());
    const status = await stack.api.get(`/api/v1/recordings/${id}/status`).set(bearer());
    expect(status.status).toBe(200);
    for (let i = 0; i < 60 && !(await created()).includes(id); i++) await new Promise((r) => setTimeout(r, 250));
    expect((await created()).filter((x) => x === id)).toHaveLength(1);
  }, 60_000);

  it('a send whose answer was lost is sent again with the same key: one meeting, never two', async () => {
    await page.goto(`${stack.url}/app/upload`);
    await page.getByLabel('Audio or video file').setInputFiles(toneWav(2));
    await page.locator('#price[data-minutes]').waitFor();
    let lost = 0;
    // The first send reaches the service (the meeting is made), then its answer is cut off.
    await page.route('**/app/uploads/*/send', async (route) => {
      if (lost++ === 0) {
        await route.fetch();
        return route.abort('connectionreset');
      }
      return route.continue();
    });
    const before = (await created()).length;
    await page.getByRole('button', { name: 'Send' }).click();
    await page.waitForURL(/\/app\/recordings\/[^/]+$/);
    await page.unroute('**/app/uploads/*/send');
    expect(lost).toBeGreaterThanOrEqual(2);
    expect((await createdWhen(before + 1)).length).toBe(before + 1);

    // The key is the service's rule, not the app's memory: a second upload of another file under
    // the same key answers the first meeting (202, same id).
    const sendWith = async (file: string, key: string) => {
      const body = readFileSync(file);
      const headers = {
        origin: stack.url,
        'x-csrf-token': await page.locator('input[name="_csrf"]').first().inputValue(),
      };
      const made = await owner.request.post(`${stack.url}/app/uploads`, {
        headers,
        data: { audio: { size: body.length, name: 'a.wav', type: 'audio/wav' } },
      });
      expect(made.status()).toBe(201);
      const { id, pieceBytes } = await made.json();
      for (let at = 0; at < body.length; at += pieceBytes) {
        const put = await owner.request.put(`${stack.url}/app/uploads/${id}/audio?offset=${at}`, {
          headers: { ...headers, 'content-type': 'application/octet-stream' },
          data: body.subarray(at, at + pieceBytes),
        });
        expect(put.status()).toBe(200);
      }
      return {
        id,
        sent: await owner.request.post(`${stack.url}/app/uploads/${id}/send`, {
          headers,
          data: { idempotencyKey: key },
        }),
      };
    };
    await page.goto(`${stack.url}/app/upload`);
    const key = 'web-test-key-0001';
    const first = await sendWith(toneWav(2), key);
    const again = await sendWith(toneWav(3), key);
    expect(first.sent.status()).toBe(202);
    expect(again.sent.status()).toBe(202);
    expect((await again.sent.json()).recording.id).toBe((await first.sent.json()).recording.id);
    expect((await createdWhen(before + 2)).length).toBe(before + 2);

    // Someone else's upload id is not found; nothing is said of it.
    const other = await stack.admin.account();
    const stranger = await signedInContext(tb.browser, stack, other.id, 'stranger@example.test');
    const strangerPage = await stranger.newPage();
    await strangerPage.goto(`${stack.url}/app/upload`);
    const csrf = await strangerPage.locator('input[name="_csrf"]').first().inputValue();
    const peek = await stranger.request.post(`${stack.url}/app/uploads/${first.id}/send`, {
      headers: { origin: stack.url, 'x-csrf-token': csrf },
      data: { idempotencyKey: key },
    });
    expect(peek.status()).toBe(404);
    await stranger.close();
  }, 60_000);

  it("shows the contract's message for a file that is not audio, and refuses a file over the limit before sending", async () => {
    await page.goto(`${stack.url}/app/upload`);
    await page.getByLabel('Audio or video file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('These are my notes, not a meeting.\n'.repeat(20)),
    });
    await page.getByRole('button', { name: 'Send' }).click();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    await expect(alert.textContent()).resolves.toBe(
      'The file is not audio of a type the service reads (Unsupported audio type).',
    );
    expect(page.url()).toMatch(/\/app\/upload$/);
    // Nothing was made: the progress bar is empty again, not left full.
    await expect(page.locator('#upload-progress').evaluate((el) => (el as HTMLProgressElement).value)).resolves.toBe(0);
    // Over MAX_UPLOAD_MB (1 MB here): said at once, the button stays off, nothing is sent.
    await page
      .getByLabel('Audio or video file')
      .setInputFiles({ name: 'big.wav', mimeType: 'audio/wav', buffer: Buffer.alloc(1024 * 1024 + 1) });
    await expect(alert.textContent()).resolves.toBe('The file is larger than the largest upload accepted (1 MB).');
    await expect(page.getByRole('button', { name: 'Send' }).isDisabled()).resolves.toBe(true);
    // The app refuses it as well when the page is bypassed.
    const csrf = await page.locator('input[name="_csrf"]').first().inputValue();
    const big = await owner.request.post(`${stack.url}/app/uploads`, {
      headers: { origin: stack.url, 'x-csrf-token': csrf },
      data: { audio: { size: 1024 * 1024 + 1, name: 'big.wav', type: 'audio/wav' } },
    });
    expect(big.status()).toBe(413);
    expect((await big.json()).error.code).toBe('UPLOAD_TOO_LARGE');
  }, 60_000);

  it('records in the browser (MediaRecorder, the fake microphone) and sends the recording the same way', async () => {
    await page.goto(`${stack.url}/app/upload`);
    await page.getByRole('button', { name: 'Start recording' }).click();
    await page.getByText(/^Recording: /).waitFor();
    await page.waitForTimeout(2500);
    await page.getByRole('button', { name: 'Stop recording' }).click();
    await page.getByText(/^Recording of 0:0\d, ready to send\.$/).waitFor();
    await expect(page.locator('#price').textContent()).resolves.toBe('1 minute');
    await page.getByLabel('Title (optional)').fill('Recorded here');
    await page.getByRole('button', { name: 'Send' }).click();
    await Promise.race([
      page.waitForURL(/\/app\/recordings\/[^/]+$/),
      page
        .getByRole('alert')
        .waitFor()
        .then(async () => {
          throw new Error(`refused: ${await page.getByRole('alert').textContent()}`);
        }),
    ]);
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Recorded here');
    const id = meetingIdOf(page.url());
    expect((await stack.api.get(`/api/v1/recordings/${id}/status`).set(bearer())).status).toBe(200);
  }, 60_000);

  it("starts the kind and the digest language at the defaults of the series chosen (the contract's start value)", async () => {
    const writer = await stack.admin.token(accountId, ['series:write']);
    const made = await stack.api
      .post('/api/v1/series')
      .set({ Authorization: `Bearer ${writer.value}` })
      .send({ name: 'Lectures', defaultKind: 'LECTURE', defaultOutputLanguage: 'FA' });
    expect(made.status).toBe(201);
    await page.goto(`${stack.url}/app/upload`);
    const [kind, language] = [page.locator('select[name=kind]'), page.locator('select[name=outputLanguage]')];
    await expect(kind.inputValue()).resolves.toBe('MEETING');
    await expect(language.inputValue()).resolves.toBe('MATCH');
    await page.locator('select[name=seriesId]').selectOption({ label: 'Lectures' });
    await expect(kind.inputValue()).resolves.toBe('LECTURE');
    await expect(language.inputValue()).resolves.toBe('FA');
    // Still the person's to change.
    await kind.selectOption('CALL');
    await expect(kind.inputValue()).resolves.toBe('CALL');
  });

  it('has no serious or critical accessibility violation, in English and in Persian, at 375 px', async () => {
    await page.goto(`${stack.url}/app/upload`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.waitForFunction(() => document.documentElement.dir === 'rtl');
    expect(await seriousViolations(page)).toEqual([]);
    // Nothing wider than the screen.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
    await page.getByRole('button', { name: 'English' }).click();
  }, 60_000);
});
