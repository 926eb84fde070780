import { createTransport } from 'nodemailer';
import type { EnvReader } from '@mm/http';
import { DEFAULT_SIGN_IN_LIMITS, type SignInLimits } from './services/sign-in-limit';
import type { SendMail } from './services/sign-in.service';

/** The app's sign-in settings of the gateway (part of GatewayConfig). */
export interface SignInConfig {
  /** Wrong passwords before slowing and refusing (SIGN_IN_SLOW_AFTER, SIGN_IN_SLOW_MS, SIGN_IN_ACCOUNT_LIMIT, SIGN_IN_ADDRESS_LIMIT). */
  signInLimits: SignInLimits;
  /** SMTP_URL (smtp://host:port or smtps://...): invite and reset links are emailed; null: only handed to the operator. */
  smtpUrl: string | null;
  smtpFrom: string;
}

export function readSignInConfig(r: EnvReader): SignInConfig {
  const raw = r.optional('SMTP_URL');
  let smtpUrl: string | null = null;
  if (raw) {
    try {
      if (['smtp:', 'smtps:'].includes(new URL(raw).protocol)) smtpUrl = raw;
    } catch {
      // reported below
    }
    if (!smtpUrl) r.problem('SMTP_URL must be smtp://host:port or smtps://host:port (credentials and options allowed)');
  }
  return {
    signInLimits: {
      slowAfter: Math.floor(r.num('SIGN_IN_SLOW_AFTER', DEFAULT_SIGN_IN_LIMITS.slowAfter, 0)),
      slowMs: Math.floor(r.num('SIGN_IN_SLOW_MS', DEFAULT_SIGN_IN_LIMITS.slowMs, 0)),
      refuseAfterPerAccount: Math.floor(
        r.num('SIGN_IN_ACCOUNT_LIMIT', DEFAULT_SIGN_IN_LIMITS.refuseAfterPerAccount, 1),
      ),
      refuseAfterPerAddress: Math.floor(
        r.num('SIGN_IN_ADDRESS_LIMIT', DEFAULT_SIGN_IN_LIMITS.refuseAfterPerAddress, 1),
      ),
    },
    smtpUrl,
    smtpFrom: r.str('SMTP_FROM', 'Meeting Memory <no-reply@localhost>'),
  };
}

/** Plain-text mail through SMTP (nodemailer, pooled), or null without SMTP_URL. */
export function smtpSender(cfg: SignInConfig): { send: SendMail; close: () => void } {
  if (!cfg.smtpUrl) return { send: null, close: () => undefined };
  const url = new URL(cfg.smtpUrl);
  if (!url.searchParams.has('pool')) url.searchParams.set('pool', 'true');
  const transport = createTransport(url.toString(), { from: cfg.smtpFrom });
  return {
    send: async (to, subject, text) => {
      await transport.sendMail({ from: cfg.smtpFrom, to, subject, text });
    },
    close: () => transport.close(),
  };
}
