import { hash as argon2Hash, verify as argon2Verify, Algorithm } from '@node-rs/argon2';
import type { Logger } from 'pino';
import { type AppLinkState, ApiError, newId } from '@mm/http';
import type { AccessRepository } from '../db/access.repository';
import type { SessionWithAccount, SignInRepository } from '../db/sign-in.repository';
import {
  deviceOf,
  hashSecret,
  INVITE_TTL_MS,
  isWellFormedSecret,
  newSecret,
  passwordProblem,
  readEmail,
  RESET_TTL_MS,
  SESSION_ABSOLUTE_MS,
  SESSION_TOUCH_MS,
  sessionHolds,
  type PasswordProblem,
} from '../domain/sign-in-rules';
import type { SignInLimit } from './sign-in-limit';

/** Sends one plain-text email (null when SMTP is not configured: links are only handed to the operator). */
export type SendMail = ((to: string, subject: string, text: string) => Promise<void>) | null;

/** argon2id at OWASP's second profile (19 MiB, 2 passes): about 30-60 ms on one core. */
const ARGON2 = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/** A new session: the cookie's secret (given to the browser once) and its row's id. */
export interface NewSession {
  secret: string;
  id: string;
  maxAgeSeconds: number;
}

/** Why a form was refused; the app shows the message of the code in the person's language. */
export class SignInRefusal extends Error {
  constructor(
    readonly code:
      | PasswordProblem
      | 'SIGN_IN_FAILED'
      | 'SIGN_IN_LIMITED'
      | 'LINK_INVALID'
      | 'EMAIL_TAKEN'
      | 'EMAIL_INVALID'
      | 'PASSWORD_WRONG',
    readonly retryAfterSeconds?: number,
  ) {
    super(code);
  }
}

/**
 * The app's sign-in, owned by the gateway: invites, passwords, resets, sessions. Secrets (links,
 * cookies) are stored only as keyed hashes; a session is a row, so ending one takes effect at once.
 */
export class SignInService {
  private dummyHash: Promise<string> | null = null;

  constructor(
    private readonly deps: {
      access: AccessRepository;
      repo: SignInRepository;
      limit: SignInLimit;
      hashKey: string;
      appUrl: string;
      sendMail: SendMail;
      logger: Logger;
    },
  ) {}

  /** The operator's invite (admin API): a single-use link to set a password; emailed when SMTP is set. */
  async createInvite(accountId: string, email: string | undefined): Promise<{ url: string; expiresAt: string }> {
    let account = await this.deps.access.getAccount(accountId);
    if (!account) throw new ApiError('NOT_FOUND', 'No such account.');
    if (email !== undefined && email !== account.email)
      account = (await this.deps.access.updateAccount(accountId, { email }))!;
    const secret = newSecret();
    const expiresAt = new Date(Date.now() + INVITE_TTL_MS);
    await this.deps.repo.insertLink({
      hash: hashSecret(this.deps.hashKey, 'link', secret),
      accountId,
      purpose: 'invite',
      expiresAt,
    });
    const url = `${this.deps.appUrl}/invite/${secret}`;
    // Without an email the link is only handed to the operator: its page asks for the email.
    if (account.email)
      await this.mail(
        account.email,
        'You are invited to Meeting Memory',
        `Open this link to set your password and sign in (it works once, for 7 days):\n\n${url}\n`,
      );
    return { url, expiresAt: expiresAt.toISOString() };
  }

  /**
   * Whether an invite or reset link can still be used, and whether its form must ask for the email
   * (the set-password page asks before showing its form).
   */
  async linkState(secret: string, purpose: 'invite' | 'reset'): Promise<AppLinkState> {
    if (!isWellFormedSecret(secret)) return 'invalid';
    const link = await this.deps.repo.findLink(hashSecret(this.deps.hashKey, 'link', secret), purpose);
    if (!link) return 'invalid';
    const account = await this.deps.access.getAccount(link.accountId);
    if (!account) return 'invalid';
    if (account.email) return 'usable';
    return purpose === 'invite' ? 'needs-email' : 'invalid';
  }

  /** Sets the password from an invite or reset link (used once), ends every session, signs in. */
  async setPasswordFromLink(
    secret: string,
    purpose: 'invite' | 'reset',
    password: string,
    userAgent: string | undefined,
    typedEmail = '',
  ): Promise<NewSession> {
    if (!isWellFormedSecret(secret)) throw new SignInRefusal('LINK_INVALID');
    const hash = hashSecret(this.deps.hashKey, 'link', secret);
    const link = await this.deps.repo.findLink(hash, purpose);
    if (!link) throw new SignInRefusal('LINK_INVALID');
    const account = await this.deps.access.getAccount(link.accountId);
    if (!account || (!account.email && purpose !== 'invite')) throw new SignInRefusal('LINK_INVALID');
    // An invite made without an email: the person gives the one they will sign in with.
    let email = account.email;
    if (!email) {
      const read = readEmail(typedEmail);
      if ('problem' in read) throw new SignInRefusal(read.problem);
      email = read.email;
    }
    const problem = passwordProblem(password, email);
    if (problem) throw new SignInRefusal(problem);
    const used = await this.deps.repo.useLinkAndSetPassword(
      hash,
      purpose,
      email,
      await argon2Hash(password, ARGON2),
      !account.email,
    );
    if (used === null) throw new SignInRefusal('LINK_INVALID');
    if (used === 'email_taken') throw new SignInRefusal('EMAIL_TAKEN');
    return this.startSession(used.accountId, userAgent);
  }

  /** Signs in; an unknown email and a wrong password answer alike (and take alike long). */
  async signIn(email: string, password: string, ip: string, userAgent: string | undefined): Promise<NewSession> {
    const admission = await this.deps.limit.admit(email, ip);
    if (admission.refused) throw new SignInRefusal('SIGN_IN_LIMITED', admission.retryAfterSeconds);
    if (admission.delayMs > 0) await new Promise((r) => setTimeout(r, admission.delayMs));
    const credential =
      email.length <= 320 && password.length <= 1000 ? await this.deps.repo.findCredentialByEmail(email.trim()) : null;
    const ok = await argon2Verify(credential?.passwordHash ?? (await this.dummy()), password).catch(() => false);
    if (!credential || !ok) {
      await this.deps.limit.failed(email, ip);
      throw new SignInRefusal('SIGN_IN_FAILED');
    }
    return this.startSession(credential.accountId, userAgent);
  }

  /** Whether links can be emailed (SMTP is configured); without it, a reset by email is not offered. */
  get emails(): boolean {
    return this.deps.sendMail !== null;
  }

  /**
   * Always answers alike, and as fast for an email of no account as for one of an account: the
   * link is made and emailed after the answer (a failure is logged; the person can ask again).
   */
  requestReset(email: string): void {
    this.emailResetLink(email).catch((err: unknown) =>
      this.deps.logger.warn({ err: String(err) }, 'reset link not made'),
    );
  }

  private async emailResetLink(email: string): Promise<void> {
    const credential = email.length <= 320 ? await this.deps.repo.findCredentialByEmail(email.trim()) : null;
    if (!credential) return;
    const secret = newSecret();
    await this.deps.repo.insertLink({
      hash: hashSecret(this.deps.hashKey, 'link', secret),
      accountId: credential.accountId,
      purpose: 'reset',
      expiresAt: new Date(Date.now() + RESET_TTL_MS),
    });
    const url = `${this.deps.appUrl}/reset/${secret}`;
    const { email: to } = (await this.deps.repo.findCredential(credential.accountId))!;
    await this.mail(
      to,
      'Reset your Meeting Memory password',
      `Open this link to choose a new password (it works once, for 30 minutes):\n\n${url}\n\nIf you did not ask for it, ignore this email.\n`,
    );
  }

  /** A signed-in person's new password: the current one must be right; every other session ends. */
  async changePassword(accountId: string, sessionId: string, current: string, next: string, ip: string): Promise<void> {
    const credential = await this.checkCurrent(accountId, current, ip);
    const problem = passwordProblem(next, credential.email);
    if (problem) throw new SignInRefusal(problem);
    await this.deps.repo.changePassword(accountId, await argon2Hash(next, ARGON2), sessionId);
  }

  /**
   * A signed-in person's new email: the one they sign in with and the one the service writes to
   * (summaries). The current password must be right; another account's email is refused. The old
   * address is told, where email can be sent, so a change made by someone else does not go unseen.
   */
  async changeEmail(accountId: string, current: string, typed: string, ip: string): Promise<void> {
    const credential = await this.checkCurrent(accountId, current, ip);
    const read = readEmail(typed);
    if ('problem' in read) throw new SignInRefusal(read.problem);
    if (read.email === credential.email) return;
    if ((await this.deps.repo.changeEmail(accountId, read.email)) === 'email_taken')
      throw new SignInRefusal('EMAIL_TAKEN');
    // Sent after the answer: a slow mail server never holds the page (a failure is logged).
    void this.mail(
      credential.email,
      'Your Meeting Memory email was changed',
      `The email you sign in with was changed to ${read.email}. If you did not change it, reset your password and tell the people who run this service.\n`,
    );
  }

  /**
   * The signed-in person's current password, checked under the sign-in limit of their email and
   * the client's address: a session someone else holds (a shared computer, a stolen cookie) is not
   * a way to guess the password, or to change it and the email, faster than the sign-in form. The
   * wrong guesses count toward that form's limit too.
   */
  private async checkCurrent(accountId: string, current: string, ip: string) {
    const credential = await this.deps.repo.findCredential(accountId);
    if (!credential) throw new SignInRefusal('PASSWORD_WRONG');
    const admission = await this.deps.limit.admit(credential.email, ip);
    if (admission.refused) throw new SignInRefusal('SIGN_IN_LIMITED', admission.retryAfterSeconds);
    if (admission.delayMs > 0) await new Promise((r) => setTimeout(r, admission.delayMs));
    const ok = current.length <= 1000 && (await argon2Verify(credential.passwordHash, current).catch(() => false));
    if (!ok) {
      await this.deps.limit.failed(credential.email, ip);
      throw new SignInRefusal('PASSWORD_WRONG');
    }
    return credential;
  }

  /** The session of a cookie, or null (unknown, ended, idle too long, past its absolute end). */
  async resolve(secret: string): Promise<SessionWithAccount | null> {
    if (!isWellFormedSecret(secret)) return null;
    const found = await this.deps.repo.findSession(hashSecret(this.deps.hashKey, 'session', secret));
    const now = new Date();
    if (!found || !sessionHolds(found.session, now)) return null;
    if (now.getTime() - found.session.lastSeenAt.getTime() > SESSION_TOUCH_MS)
      await this.deps.repo.touchSession(found.session.id);
    return found;
  }

  signOut(sessionId: string): Promise<void> {
    return this.deps.repo.endSession(sessionId);
  }

  signOutOthers(accountId: string, keepId: string): Promise<number> {
    return this.deps.repo.endOtherSessions(accountId, keepId);
  }

  async listSessions(accountId: string, currentId: string) {
    const rows = await this.deps.repo.listSessions(accountId, new Date(Date.now() - 7 * 24 * 3600_000));
    return rows.map((s) => ({
      id: s.id,
      device: s.device,
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      current: s.id === currentId,
    }));
  }

  /** A fresh session (a new id at every sign-in: a cookie set before signing in is never kept). */
  private async startSession(accountId: string, userAgent: string | undefined): Promise<NewSession> {
    const secret = newSecret();
    const id = newId('ses');
    await this.deps.repo.insertSession({
      id,
      accountId,
      hash: hashSecret(this.deps.hashKey, 'session', secret),
      csrfToken: newSecret(),
      device: deviceOf(userAgent),
      expiresAt: new Date(Date.now() + SESSION_ABSOLUTE_MS),
    });
    return { secret, id, maxAgeSeconds: SESSION_ABSOLUTE_MS / 1000 };
  }

  private dummy(): Promise<string> {
    this.dummyHash ??= argon2Hash(newSecret(), ARGON2);
    return this.dummyHash;
  }

  private async mail(to: string, subject: string, text: string): Promise<void> {
    if (!this.deps.sendMail) return;
    try {
      await this.deps.sendMail(to, subject, text);
    } catch (err) {
      // The invite is still answered to the operator; a reset can be asked again.
      this.deps.logger.warn({ err: String(err) }, 'sign-in email not sent');
    }
  }
}
