import { Client } from 'pg';
import { postForm, sessionCookieOf } from '../support/app-form';
import { startStack, type Stack, type TestAccount } from '../support/stack';
import { onStack } from '../support/browser';

const PASSWORD = 'a long river of tea';

/** Issue 28, bad input: the app's door refuses forged, stale and malformed requests with a 4xx, never a 500. */
describe('the app: CSRF, sessions and sign-in limits at the gateway (plain HTTP)', () => {
  let stack: Stack;
  let account: TestAccount;
  const email = 'omid@example.test';

  // Low limits and no real waiting: the rule's numbers are unit-tested (sign-in-rules.test.ts).
  beforeAll(async () => {
    stack = await startStack({ SIGN_IN_SLOW_MS: '1', SIGN_IN_ADDRESS_LIMIT: '25' });
    account = await stack.admin.account({ developerMode: false });
    await setPassword(account.id, email);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    postForm(stack.url, path, form, headers);
  const origin = () => ({ origin: stack.url });

  async function setPassword(accountId: string, to: string): Promise<string> {
    const invite = await stack.admin.invite(accountId, to);
    const res = await post(
      new URL(onStack(stack.url, invite.url)).pathname,
      { password: PASSWORD, confirm: PASSWORD },
      origin(),
    );
    expect(res.status).toBe(303);
    return sessionCookieOf(res)!;
  }
  async function signIn(
    who: string,
    password = PASSWORD,
  ): Promise<{ status: number; location: string; cookie: string | null }> {
    const res = await post('/app/sign-in', { email: who, password }, origin());
    return { status: res.status, location: res.headers.get('location') ?? '', cookie: sessionCookieOf(res) };
  }
  async function csrfOf(cookie: string): Promise<string> {
    const html = await (await fetch(`${stack.url}/app/tokens`, { headers: { cookie: `mm_session=${cookie}` } })).text();
    return /name="_csrf" value="([^"]+)"/.exec(html)![1];
  }
  const developerMode = async () =>
    (await stack.admin.raw().api.get(`/admin/v1/accounts/${account.id}`).set(stack.admin.raw().auth)).body.account
      .developerMode;

  it('refuses a state-changing request without the app Origin or without the session CSRF token (403), changing nothing', async () => {
    const { cookie } = await signIn(email);
    const csrf = await csrfOf(cookie!);
    const session = { cookie: `mm_session=${cookie}` };
    const tries = [
      post('/app/developer-mode', { on: 'true', _csrf: csrf }, session),
      post('/app/developer-mode', { on: 'true', _csrf: csrf }, { ...session, origin: 'http://evil.example' }),
      post('/app/developer-mode', { on: 'true', _csrf: csrf }, { ...session, referer: 'http://evil.example/page' }),
      post('/app/developer-mode', { on: 'true', _csrf: csrf }, { ...session, origin: 'null' }),
      post('/app/developer-mode', { on: 'true' }, { ...session, ...origin() }),
      post('/app/developer-mode', { on: 'true', _csrf: `${csrf.slice(0, -1)}x` }, { ...session, ...origin() }),
      post('/app/sessions/sign-out-others', { _csrf: 'nope' }, { ...session, ...origin() }),
    ];
    const refused = await Promise.all(tries);
    expect(refused.map((r) => r.status)).toEqual([403, 403, 403, 403, 403, 403, 403]);
    // A page in the app's look, not a line of text: why, and what to do.
    expect(refused[4].headers.get('content-type')).toMatch(/^text\/html/);
    expect(refused[4].headers.get('content-security-policy')).toContain("default-src 'none'");
    await expect(refused[4].text()).resolves.toMatch(/The form is out of date[\s\S]*reload the page/);
    const persian = await post(
      '/app/developer-mode',
      { on: 'true', _csrf: 'stale' },
      { ...session, ...origin(), 'accept-language': 'fa-IR,fa;q=0.9' },
    );
    expect([persian.status, (await persian.text()).includes('<html lang="fa" dir="rtl">')]).toEqual([403, true]);
    expect(await developerMode()).toBe(false);
    const ok = await post(
      '/app/developer-mode',
      { on: 'true', _csrf: csrf },
      { ...session, referer: `${stack.url}/app/tokens` },
    );
    expect(ok.status).toBe(303);
    expect(await developerMode()).toBe(true);
  });

  it('signs out a tampered, idle or ended session cookie (cleared, back to sign-in)', async () => {
    const { cookie } = await signIn(email);
    const db = new Client({ connectionString: stack.env.DATABASE_URL });
    await db.connect();
    try {
      const tampered = `${cookie!.slice(0, -2)}${cookie!.endsWith('A') ? 'BB' : 'AA'}`;
      const forged = 'x'.repeat(43);
      const { cookie: idle } = await signIn(email);
      await db.query(
        `update access.session set last_seen_at = now() - interval '8 days' where account_id = $1 and created_at = (select max(created_at) from access.session)`,
        [account.id],
      );
      for (const value of [tampered, forged, idle!, 'not-a-cookie;%%']) {
        const res = await fetch(`${stack.url}/app/tokens`, {
          redirect: 'manual',
          headers: { cookie: `mm_session=${value}` },
        });
        expect(res.status).toBe(303);
        expect(res.headers.get('location')).toBe('/app/sign-in?next=%2Fapp%2Ftokens');
        expect(res.headers.get('set-cookie')).toMatch(/^mm_session=; Max-Age=0; Path=\/; HttpOnly; SameSite=Lax/);
      }
      const live = await fetch(`${stack.url}/app/tokens`, {
        redirect: 'manual',
        headers: { cookie: `mm_session=${cookie}` },
      });
      expect(live.status).toBe(200);
    } finally {
      await db.end();
    }
  });

  it('answers over-long and malformed fields with a form error, never a 500', async () => {
    const { cookie } = await signIn(email);
    const csrf = await csrfOf(cookie!);
    const session = { cookie: `mm_session=${cookie}`, ...origin() };
    const tokenForms = [
      { name: 'n'.repeat(500), scopes: 'recordings:read', expiresInDays: '90', dailyMinuteCap: '' },
      { name: 'ok', scopes: 'recordings:everything', expiresInDays: '90', dailyMinuteCap: '' },
      { name: 'ok', scopes: 'recordings:read', expiresInDays: '7', dailyMinuteCap: '' },
      { name: 'ok', scopes: 'recordings:read', expiresInDays: '90', dailyMinuteCap: '1e3' },
      { name: 'ok', scopes: 'recordings:read', expiresInDays: '90', dailyMinuteCap: '0' },
    ];
    for (const form of tokenForms) {
      const res = await post('/app/tokens', { ...form, _csrf: csrf }, session);
      expect(res.status).toBe(400);
      expect(await res.text()).toContain('role="alert"');
    }
    const huge = await post('/app/tokens', { name: 'x'.repeat(100_000), _csrf: csrf }, session);
    expect(huge.status).toBe(403);
    const longSignIn = await post(
      '/app/sign-in',
      { email: `${'e'.repeat(5000)}@example.test`, password: 'p'.repeat(5000), next: 'https://evil.example/' },
      origin(),
    );
    expect([longSignIn.status, longSignIn.headers.get('location')]).toEqual([
      303,
      '/app/sign-in?error=SIGN_IN_FAILED&next=%2Fapp%2F',
    ]);
    const badLink = await post('/app/invite/not-a-link', { password: PASSWORD, confirm: PASSWORD }, origin());
    expect(badLink.headers.get('location')).toBe('/app/invite/not-a-link?error=LINK_INVALID');
    const badJson = await fetch(`${stack.url}/app/language`, {
      method: 'POST',
      redirect: 'manual',
      headers: { ...session, 'x-csrf-token': csrf, 'content-type': 'application/json' },
      body: '{"locale":',
    });
    expect(badJson.status).toBe(303);
    // The session is unharmed by all of it.
    expect((await fetch(`${stack.url}/app/`, { headers: { cookie: `mm_session=${cookie}` } })).status).toBe(200);
  });

  it('slows then refuses 20 wrong passwords for that email alone, alike for an unknown email; the address limit follows', async () => {
    const other = await stack.admin.account();
    await setPassword(other.id, 'leila@example.test');
    const answers = async (who: string) => {
      const seen: string[] = [];
      for (let i = 0; i < 20; i++)
        seen.push(new URL((await signIn(who, `wrong password ${i}`)).location, stack.url).searchParams.get('error')!);
      return seen;
    };
    const known = await answers(email);
    const unknown = await answers('nobody-at-all@example.test');
    expect(known).toEqual([...Array(10).fill('SIGN_IN_FAILED'), ...Array(10).fill('SIGN_IN_LIMITED')]);
    expect(unknown).toEqual(known);
    // The right password of the refused email is refused too; another account from the same address is not.
    expect((await signIn(email)).location).toContain('error=SIGN_IN_LIMITED');
    const leila = await signIn('leila@example.test');
    expect([leila.status, leila.location]).toEqual([303, '/app/']);
    // Refused attempts are not counted: 21 wrong passwords from this address so far (one in an
    // earlier test); past the 25th it is closed to every email.
    for (let i = 0; i < 5; i++) await signIn(`stranger${i}@example.test`, 'wrong password');
    expect((await signIn('leila@example.test')).location).toContain('error=SIGN_IN_LIMITED');
  });
});
