import { createHmac, randomBytes } from 'node:crypto';
import { adminSchemas } from '@mm/contract';

/** Sign-in's rules as pure functions: passwords, secrets, expiries, where a form may send the browser. */

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 200;
export const EMAIL_MAX_LENGTH = 320;
/** An invite link lives a week; a reset link half an hour (issue 28). */
export const INVITE_TTL_MS = 7 * 24 * 3600_000;
export const RESET_TTL_MS = 30 * 60_000;
/** A session ends after 30 days whatever happens, or after 7 days unused. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 3600_000;
export const SESSION_IDLE_MS = 7 * 24 * 3600_000;
/** last_seen_at is written at most this often per session (a page view is not a write). */
export const SESSION_TOUCH_MS = 60_000;

/** Passwords people pick first; refused whatever their length (lower-cased comparison). */
const COMMON_PASSWORDS = new Set([
  '1234567890',
  '12345678910',
  '0123456789',
  '1111111111',
  '0000000000',
  '1q2w3e4r5t',
  'qwertyuiop',
  'password123',
  'password1234',
  'passw0rd123',
  'iloveyou123',
  'qwerty12345',
  'qwerty123456',
  'abcdefghij',
  'abcd123456',
  'letmein123',
  'welcome123',
  'admin12345',
  'administrator',
  'football123',
  'baseball123',
  'superman123',
  'sunshine123',
  'princess123',
  'dragon12345',
  'monkey12345',
  'changeme123',
  'trustno1234',
  'asdfghjkl1',
  'zxcvbnm123',
  'meetingmemory',
  'password!!',
  'passwordpassword',
  'qwertyqwerty',
  '123123123123',
  'aaaaaaaaaa',
  'starwars123',
  'whatever123',
  'computer123',
]);

export type PasswordProblem = 'PASSWORD_TOO_SHORT' | 'PASSWORD_TOO_LONG' | 'PASSWORD_COMMON';

/** Why a new password is refused, or null. */
export function passwordProblem(password: string, email: string | null): PasswordProblem | null {
  if ([...password].length < PASSWORD_MIN_LENGTH) return 'PASSWORD_TOO_SHORT';
  if (password.length > PASSWORD_MAX_LENGTH) return 'PASSWORD_TOO_LONG';
  const lower = password.toLowerCase();
  if (COMMON_PASSWORDS.has(lower) || /^(.)\1+$/.test(password) || (email && lower === email.toLowerCase()))
    return 'PASSWORD_COMMON';
  return null;
}

const EMAIL = new RegExp(adminSchemas.emailPattern);

/** A new sign-in email as typed (trimmed), or the refusal: what the admin API and invites take. */
export function readEmail(typed: string): { email: string } | { problem: 'EMAIL_INVALID' } {
  const email = typed.trim();
  return email.length <= 320 && EMAIL.test(email) ? { email } : { problem: 'EMAIL_INVALID' };
}

/** A random secret for a link or a session cookie: 32 bytes, base64url. */
export function newSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** The keyed hash a link or a session is stored as (never the secret itself). */
export function hashSecret(key: string, purpose: 'session' | 'link', secret: string): string {
  return createHmac('sha256', `${key}:${purpose}`).update(secret).digest('base64url');
}

export function isWellFormedSecret(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}

/**
 * Where the browser goes after signing in: only a path of the app itself, else the app's home.
 * Judged as the browser will read it: dot segments (`/app/../../evil`, `%2e%2e` too) are resolved
 * first, so the path still starts with the app's after they are.
 */
export function safeNextPath(next: unknown, appPath: string): string {
  const home = `${appPath}/`;
  if (typeof next !== 'string' || next.length > 500) return home;
  if (!next.startsWith(home) || next.startsWith('//') || /[\\\s]/.test(next)) return home;
  const read = new URL(next, 'http://app.invalid');
  if (read.origin !== 'http://app.invalid' || !read.pathname.startsWith(home)) return home;
  return `${read.pathname}${read.search}${read.hash}`;
}

/** Whether a session row still holds at `now`. */
export function sessionHolds(s: { expiresAt: Date; lastSeenAt: Date; endedAt: Date | null }, now: Date): boolean {
  return s.endedAt === null && s.expiresAt > now && now.getTime() - s.lastSeenAt.getTime() < SESSION_IDLE_MS;
}

/** A short, human name of the browser from its User-Agent (the sessions page shows it). */
export function deviceOf(userAgent: string | undefined): string {
  const ua = userAgent ?? '';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\//.test(ua)
      ? 'Firefox'
      : /Chrom(e|ium)\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : /curl\//.test(ua)
            ? 'curl'
            : 'Browser';
  const os = /Android/.test(ua)
    ? 'Android'
    : /iPhone|iPad/.test(ua)
      ? 'iOS'
      : /Windows/.test(ua)
        ? 'Windows'
        : /Mac OS X/.test(ua)
          ? 'macOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : '';
  return os ? `${browser} on ${os}` : browser;
}

/** Reads one cookie's value from a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}
