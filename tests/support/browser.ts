import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { AxeBuilder } from '@axe-core/playwright';

/** Debian's chromium (deploy/install.sh installs it); playwright-core drives it, downloads nothing. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * A real headless browser for one test file. Its profile is fresh: playwright's launch() gives
 * chromium a --user-data-dir of its own in a new temporary folder and deletes it on close (it
 * refuses one passed in args; launchPersistentContext would allow only one browser context).
 */
export interface TestBrowser {
  browser: Browser;
  close(): Promise<void>;
}

/** `extraArgs`: more chromium switches (the fake microphone of the recording test). */
export async function launchBrowser(extraArgs: string[] = []): Promise<TestBrowser> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Quiet and offline apart from the page under test: no updates, sync, QUIC or first-run work.
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      ...extraArgs,
    ],
  });
  return {
    browser,
    close: () => browser.close(),
  };
}

/**
 * The page passes axe (no serious or critical violation) in English and in Persian (right to left,
 * no wider than 375 px), switched with the page's own language button and back to English.
 */
export async function axeBothLanguages(page: Page): Promise<void> {
  const fail = (what: string, found: unknown) => new Error(`${what}: ${JSON.stringify(found)}`);
  const en = await seriousViolations(page);
  if (en.length) throw fail('axe, English', en);
  await page.getByRole('button', { name: 'فارسی' }).click();
  await page.waitForFunction("document.documentElement.dir === 'rtl'");
  const fa = await seriousViolations(page);
  if (fa.length) throw fail('axe, Persian', fa);
  const width = await page.evaluate<number>('document.documentElement.scrollWidth');
  if (width > 375) throw fail('wider than 375 px', width);
  await page.getByRole('button', { name: 'English' }).click();
  await page.waitForFunction("document.documentElement.dir === 'ltr'");
}

/** Serious and critical accessibility violations of the page (axe-core), as short lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // Legacy mode runs axe in the page itself: the app has no frames, and the default mode opens a
  // second page per analysis to merge frame results (most of its time).
  const result = await new AxeBuilder({ page }).setLegacyMode(true).analyze();
  // A run that checked nothing would pass every page: the rules that passed prove it looked.
  if (result.passes.length < 10) throw new Error(`axe checked almost nothing on ${page.url()}`);
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join('; ')})`);
}

/** The path and query of a link the API or an email hands out, to open it on a test stack's own address. */
export function onStack(stackUrl: string, link: string): string {
  const u = new URL(link);
  return `${stackUrl}${u.pathname}${u.search}`;
}

/**
 * A browser context signed in as a new person: the operator's invite, then the password set
 * through the gateway's own form endpoint (the browser suite's first test does it by hand).
 */
export async function signedInContext(
  browser: Browser,
  stack: { url: string; admin: { invite(id: string, email?: string): Promise<{ url: string }> } },
  accountId: string,
  email: string,
  password = 'a long river of tea',
  options: BrowserContextOptions = {},
): Promise<BrowserContext> {
  const context = await browser.newContext(options);
  const invite = await stack.admin.invite(accountId, email);
  const res = await context.request.post(onStack(stack.url, invite.url), {
    form: { password, confirm: password },
    headers: { origin: stack.url },
    maxRedirects: 0,
  });
  if (res.status() !== 303 || !res.headers().location?.endsWith('/app/'))
    throw new Error(`set password: ${res.status()} ${res.headers().location}`);
  return context;
}

/** The context's session cookies (the app's script also keeps the time zone in a cookie of its own). */
export async function sessionCookies(context: BrowserContext) {
  return (await context.cookies()).filter((c) => c.name === 'mm_session');
}
