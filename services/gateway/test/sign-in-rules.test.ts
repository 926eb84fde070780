import {
  deviceOf,
  passwordProblem,
  readEmail,
  safeNextPath,
  sessionHolds,
  SESSION_IDLE_MS,
} from '../src/domain/sign-in-rules';
import { admissionOf, DEFAULT_SIGN_IN_LIMITS } from '../src/services/sign-in-limit';

describe('sign-in rules', () => {
  it('reads a new email trimmed, and refuses what no mail could reach', () => {
    expect(readEmail('  sara@example.test ')).toEqual({ email: 'sara@example.test' });
    for (const bad of [
      '',
      'sara',
      'sara@',
      '@example.test',
      'sa ra@example.test',
      `${'a'.repeat(320)}@x.y`,
      // Characters only a quoted or display form holds: not an address mail can be sent to as typed.
      'x@example.com<script>',
      'Sara <sara@example.test>',
      '"sara"@example.test',
      'sara@example.test;other@example.test',
    ])
      expect(readEmail(bad)).toEqual({ problem: 'EMAIL_INVALID' });
    expect(readEmail('sara.k+notes@mail.example.test')).toEqual({ email: 'sara.k+notes@mail.example.test' });
  });

  it('refuses short, long, common and email-like passwords and takes a long unusual one', () => {
    expect(passwordProblem('short', null)).toBe('PASSWORD_TOO_SHORT');
    expect(passwordProblem('x'.repeat(201), null)).toBe('PASSWORD_TOO_LONG');
    expect(passwordProblem('Password123', null)).toBe('PASSWORD_COMMON');
    expect(passwordProblem('aaaaaaaaaaaa', null)).toBe('PASSWORD_COMMON');
    expect(passwordProblem('sara@example.test', 'Sara@Example.test')).toBe('PASSWORD_COMMON');
    expect(passwordProblem('a long river of tea', 'sara@example.test')).toBeNull();
    // Length counts characters, not UTF-16 units: ten Persian letters are ten.
    expect(passwordProblem('رودخانهٔبلندچای', null)).toBeNull();
  });

  it('sends the browser after sign-in only to a path of the app', () => {
    expect(safeNextPath('/app/recordings/rec_1/naming', '/app')).toBe('/app/recordings/rec_1/naming');
    expect(safeNextPath('/app/search?q=%D8%A8%D9%88%D8%AF%D8%AC%D9%87#top', '/app')).toBe(
      '/app/search?q=%D8%A8%D9%88%D8%AF%D8%AC%D9%87#top',
    );
    // Dot segments that stay inside the app are resolved as the browser will.
    expect(safeNextPath('/app/series/../recordings', '/app')).toBe('/app/recordings');
    for (const bad of [
      'https://evil.example/app/',
      '//evil.example/app/',
      '/api/v1/whoami',
      '/app\\@evil',
      '/app/ x',
      '/app/../../evil',
      '/app/%2e%2e/evil',
      '/app/.%2E/api/v1/whoami',
      42,
      'x'.repeat(600),
    ]) {
      expect(safeNextPath(bad, '/app')).toBe('/app/');
    }
  });

  it('ends a session ended, past its absolute end, or idle too long', () => {
    const now = new Date('2026-01-10T00:00:00Z');
    const live = {
      expiresAt: new Date('2026-02-01T00:00:00Z'),
      lastSeenAt: new Date('2026-01-09T00:00:00Z'),
      endedAt: null,
    };
    expect(sessionHolds(live, now)).toBe(true);
    expect(sessionHolds({ ...live, endedAt: now }, now)).toBe(false);
    expect(sessionHolds({ ...live, expiresAt: now }, now)).toBe(false);
    expect(sessionHolds({ ...live, lastSeenAt: new Date(now.getTime() - SESSION_IDLE_MS) }, now)).toBe(false);
  });

  it('slows sign-in from the 4th wrong password of an email, doubling, and refuses from the 10th or the address 50th', () => {
    const at = (byEmail: number, byIp = byEmail) =>
      admissionOf({ byEmail, emailTtl: 600, byIp, ipTtl: 300 }, DEFAULT_SIGN_IN_LIMITS);
    expect([0, 1, 2, 3, 4, 5, 8, 9].map((n) => at(n))).toEqual(
      [0, 0, 0, 250, 500, 1000, 4000, 4000].map((delayMs) => ({ refused: false, delayMs })),
    );
    expect(at(10)).toEqual({ refused: true, retryAfterSeconds: 600 });
    expect(at(0, 50)).toEqual({ refused: true, retryAfterSeconds: 300 });
  });

  it('names the device from its User-Agent', () => {
    expect(
      deviceOf(
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/140.0 Safari/537.36',
      ),
    ).toBe('Chrome on Linux');
    expect(deviceOf(undefined)).toBe('Browser');
  });
});
