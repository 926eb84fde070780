import { existsSync } from 'node:fs';
import { EnvReader, readCommonConfig, readUploadLimits, type CommonConfig } from '@mm/http';
import type { WalletLimits } from './services/wallet.service';

export interface SummaryEmailConfig {
  /** `smtp://host:port` or `smtps://user:pass@host:port`; null: summary emails are not sent. */
  smtpUrl: string | null;
  from: string;
  /** TrueType fonts the digest PDF embeds; null regular: the built-in Helvetica (cannot write Persian). */
  pdfFonts: { regular: string | null; bold: string | null };
}

export interface AccountConfig extends CommonConfig {
  wallet: WalletLimits;
  uploadLimits: { maxUploadMb: number; maxRecordingMinutes: number };
  summaryEmail: SummaryEmailConfig;
  /**
   * Whether the app's wallet sells packs of minutes (APP_PURCHASES): `direct` credits a pack as a
   * purchase at once (no payment provider is built in: an install whose people are billed outside
   * the app, or a single owner's); `off` (the default) sells none, and the operator adds minutes.
   */
  appPurchases: 'direct' | 'off';
  /**
   * Where the wallet-change listener connects (DATABASE_LISTEN_URL; null: DATABASE_URL): a LISTEN
   * needs a session of its own, which a transaction pooler does not keep.
   */
  listenDatabaseUrl: string | null;
}

// DejaVu Sans covers Latin and Arabic script (Persian letters included) in one face, so a Persian
// digest with English terms needs no font switching. Paths of Debian (fonts-dejavu-core), Fedora/Alpine, Arch.
const FONT_CANDIDATES = [
  '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/dejavu/DejaVuSans.ttf',
  '/usr/share/fonts/TTF/DejaVuSans.ttf',
];

function readPdfFonts(r: EnvReader): SummaryEmailConfig['pdfFonts'] {
  const chosen = r.optional('PDF_FONT');
  if (chosen === 'builtin') return { regular: null, bold: null };
  if (chosen && !existsSync(chosen)) r.problem(`PDF_FONT: no file at ${chosen} (or "builtin" for Helvetica)`);
  const regular = chosen ?? FONT_CANDIDATES.find((p) => existsSync(p)) ?? null;
  const boldChosen = r.optional('PDF_FONT_BOLD');
  if (boldChosen && !existsSync(boldChosen)) r.problem(`PDF_FONT_BOLD: no file at ${boldChosen}`);
  const sibling = regular?.replace(/\.ttf$/i, '-Bold.ttf');
  return { regular, bold: boldChosen ?? (sibling && sibling !== regular && existsSync(sibling) ? sibling : null) };
}

function readSmtpUrl(r: EnvReader): string | null {
  const raw = r.optional('SMTP_URL');
  if (!raw) return null;
  try {
    if (['smtp:', 'smtps:'].includes(new URL(raw).protocol)) return raw;
  } catch {
    // reported below
  }
  r.problem('SMTP_URL must be smtp://host:port or smtps://host:port (credentials and options allowed)');
  return null;
}

function readListenUrl(r: EnvReader): string | null {
  const raw = r.optional('DATABASE_LISTEN_URL');
  if (raw && !/^postgres(ql)?:\/\//.test(raw)) r.problem('DATABASE_LISTEN_URL must be a postgres:// URL');
  return raw;
}

/** Reads the account service's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<AccountConfig> {
  const r = new EnvReader(env);
  return r.done('account', {
    ...readCommonConfig(r, 'account'),
    listenDatabaseUrl: readListenUrl(r),
    wallet: {
      dailyMeetingLimit: r.num('DAILY_MEETING_LIMIT', 100, 1),
      dailyAskLimit: r.num('DAILY_ASK_LIMIT', 200, 1),
      trialOverdraftMinutes: r.num('TRIAL_OVERDRAFT_MINUTES', 30, 0),
    },
    uploadLimits: readUploadLimits(r),
    summaryEmail: {
      smtpUrl: readSmtpUrl(r),
      from: r.str('SMTP_FROM', 'Meeting Memory <no-reply@localhost>'),
      pdfFonts: readPdfFonts(r),
    },
    appPurchases: r.oneOf('APP_PURCHASES', ['direct', 'off'] as const, 'off'),
  });
}
