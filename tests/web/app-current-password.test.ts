import { postForm, sessionCookieOf } from '../support/app-form';
import { startStack, type Stack } from '../support/stack';
import { onStack } from '../support/browser';

const PASSWORD = 'a long river of tea';

/**
 * The current password asked by the profile's forms (a new password, a new email) is checked under
 * the sign-in limit of the account's email and the client's address (session 39): a session held
 * by someone else is no faster a way to guess it than the sign-in form.
 */
describe('the app: wrong current passwords on the profile forms are limited like sign-in (plain HTTP)', () => {
  let stack: Stack;
  const email = 'shirin@example.test';

  // No real waiting: the rule's numbers are unit-tested (sign-in-rules.test.ts).
  beforeAll(async () => {
    stack = await startStack({ SIGN_IN_SLOW_MS: '1' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const post = (path: string, form: Record<string, string>, headers: Record<string, string> = {}) =>
    postForm(stack.url, path, form, { origin: stack.url, ...headers });
  const errorOf = (res: Response) =>
    new URL(res.headers.get('location') ?? '', stack.url).searchParams.get('error') ?? `done (${res.status})`;

  async function signedIn(who: string): Promise<{ cookie: string; csrf: string }> {
    const account = await stack.admin.account({ developerMode: false });
    const invite = await stack.admin.invite(account.id, who);
    const res = await post(new URL(onStack(stack.url, invite.url)).pathname, { password: PASSWORD, confirm: PASSWORD });
    expect(res.status).toBe(303);
    const cookie = sessionCookieOf(res)!;
    const html = await (
      await fetch(`${stack.url}/app/profile`, { headers: { cookie: `mm_session=${cookie}` } })
    ).text();
    return { cookie, csrf: /name="_csrf" value="([^"]+)"/.exec(html)![1] };
  }

  it('counts wrong guesses on both forms, then refuses even the right one, and sign-in to that email with them', async () => {
    const { cookie, csrf } = await signedIn(email);
    const session = { cookie: `mm_session=${cookie}` };
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const guess = `wrong guess number ${i}`;
      answers.push(
        errorOf(
          await post(
            '/app/password',
            { current: guess, password: 'a new long password', confirm: 'a new long password', _csrf: csrf },
            session,
          ),
        ),
      );
      answers.push(
        errorOf(await post('/app/email', { current: guess, email: 'taken-over@example.test', _csrf: csrf }, session)),
      );
    }
    expect(answers).toEqual([...Array(10).fill('PASSWORD_WRONG'), 'SIGN_IN_LIMITED', 'SIGN_IN_LIMITED']);
    const refused = await post(
      '/app/email',
      { current: PASSWORD, email: 'taken-over@example.test', _csrf: csrf },
      session,
    );
    expect(errorOf(refused)).toBe('SIGN_IN_LIMITED');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const signIn = await post('/app/sign-in', { email, password: PASSWORD });
    expect(errorOf(signIn)).toBe('SIGN_IN_LIMITED');
    // Nothing changed: the email and the password are as they were (the session still works).
    expect((await fetch(`${stack.url}/app/profile`, { headers: session })).status).toBe(200);
    const profile = await (await fetch(`${stack.url}/app/profile`, { headers: session })).text();
    expect(profile).toContain(email);
    expect(profile).not.toContain('taken-over@example.test');
  });

  it('lets the right current password through on a fresh email', async () => {
    const { cookie, csrf } = await signedIn('farid@example.test');
    const res = await post(
      '/app/email',
      { current: PASSWORD, email: 'farid.new@example.test', _csrf: csrf },
      { cookie: `mm_session=${cookie}` },
    );
    expect(res.headers.get('location')).toBe('/app/profile?done=email');
  });
});
