import { launchBrowser, signedInContext, type TestBrowser } from '../support/browser';
import { startStack, type Stack } from '../support/stack';

/**
 * The app's times in the viewer's own zone (session 39): the page's script keeps the browser's zone
 * in a cookie, the gateway passes it on, and every time from the next page on is written in it and
 * names it. Until then, and for anything that is not a zone, the times are UTC and say so.
 */
describe("the app: times in the viewer's time zone (real browser)", () => {
  let stack: Stack;
  let chrome: TestBrowser;
  beforeAll(async () => {
    stack = await startStack();
    chrome = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await chrome?.close();
    await stack?.stop();
  });

  // Each test its own person: the Persian switch is the account's setting.
  const newAccount = async () => (await stack.admin.account({ developerMode: true })).id;

  /** A time as the English pages write it, in a table cell. */
  const TIME = /<td>(\d{1,2} \w{3} \d{4}, \d{2}:\d{2} [^<]+)<\/td>/;

  /** The sessions page's "last seen" time: the browser's own session, always listed. */
  const lastSeen = async (page: import('playwright-core').Page) => {
    await page.goto(`${stack.url}/app/sessions`);
    return (await page.locator('table tbody tr td').nth(1).textContent())?.trim() ?? '';
  };

  it('writes times in the browser zone from the next page on, naming it', async () => {
    const context = await signedInContext(
      chrome.browser,
      stack,
      await newAccount(),
      'zone.tehran@example.test',
      undefined,
      {
        timezoneId: 'Asia/Tehran',
      },
    );
    const page = await context.newPage();
    expect(await lastSeen(page)).toMatch(/ UTC$/);
    expect(await lastSeen(page)).toMatch(/^\d{1,2} \w{3} \d{4}, \d{2}:\d{2} GMT\+3:30$/);
    const cookie = (await context.cookies()).find((c) => c.name === 'mm_tz');
    expect([cookie?.value, cookie?.path]).toEqual(['Asia/Tehran', '/app']);
    // In Persian too: the Solar Hijri date, the zone named.
    await page.getByRole('button', { name: 'فارسی' }).click();
    await page.waitForFunction("document.documentElement.dir === 'rtl'");
    expect(await lastSeen(page)).toContain('+۳:۳۰');
    await context.close();
  });

  it('a zone written another way is read as its own; anything else is UTC', async () => {
    const cases: Array<[string, RegExp]> = [
      ['America/New_York', / GMT-5$/],
      ['Asia/Kolkata', / GMT\+5:30$/],
      ['Not/AZone', / UTC$/],
      ['../../etc/passwd', / UTC$/],
      ['Asia/Tehran%0d%0aX-Evil: 1', / UTC$/],
    ];
    // Sent as a browser would after its script ran elsewhere: the session's cookie and a zone cookie.
    const context = await signedInContext(chrome.browser, stack, await newAccount(), 'zone.cases@example.test');
    const session = (await context.cookies()).find((c) => c.name === 'mm_session')!.value;
    await context.close();
    const seen: string[] = [];
    for (const [zone] of cases) {
      const res = await fetch(`${stack.url}/app/sessions`, {
        headers: { cookie: `mm_session=${session}; mm_tz=${zone}` },
      });
      expect(res.status).toBe(200);
      seen.push(TIME.exec(await res.text())?.[1] ?? 'no time on the page');
    }
    cases.forEach(([, expected], i) => expect(seen[i]).toMatch(expected));
  });

  it('takes no zone from a header the browser sends itself', async () => {
    const context = await signedInContext(chrome.browser, stack, await newAccount(), 'zone.header@example.test');
    const session = (await context.cookies()).find((c) => c.name === 'mm_session')!.value;
    await context.close();
    const res = await fetch(`${stack.url}/app/sessions`, {
      headers: { cookie: `mm_session=${session}`, 'x-mm-time-zone': 'Asia/Tehran' },
    });
    expect(TIME.exec(await res.text())?.[1]).toMatch(/ UTC$/);
  });
});
