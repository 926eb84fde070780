import os from 'node:os';
import path from 'node:path';
import { EXIT } from './domain/exit-codes';
import { CliError } from './output';

export interface CliConfig {
  /** MM_URL: the gateway's URL; overrides the saved login. */
  url: string | undefined;
  /** MM_TOKEN: an API token; overrides the saved login. */
  token: string | undefined;
  /** MM_CONFIG: where `mm login` keeps the URL and token (mode 0600). */
  credentialsPath: string;
  /** MM_POLL_SECONDS: longest wait between status polls (the contract asks about once a minute). */
  pollMaxSeconds: number;
  /** The directory the user ran the command in (pnpm runs scripts at the repo root, INIT_CWD keeps it). */
  cwd: string;
}

/** Reads the command line's environment once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<CliConfig> {
  const poll = Number(env.MM_POLL_SECONDS ?? 60);
  if (!Number.isFinite(poll) || poll <= 0)
    throw new CliError('CONFIG', `MM_POLL_SECONDS must be a positive number, got ${env.MM_POLL_SECONDS}`, EXIT.USAGE);
  const home = env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config');
  return Object.freeze({
    url: env.MM_URL || undefined,
    token: env.MM_TOKEN || undefined,
    credentialsPath: env.MM_CONFIG || path.join(home, 'mm', 'credentials.json'),
    pollMaxSeconds: poll,
    cwd: env.INIT_CWD || process.cwd(),
  });
}
