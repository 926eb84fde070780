import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CliConfig } from './config';
import { redactUrl } from '@mm/sdk';
import { sameApiRoot } from './domain/base-url';
import { EXIT } from './domain/exit-codes';
import { CliError } from './output';

export interface Credentials {
  url: string;
  token: string;
  /** Where the URL came from (MM_URL or the login file), to name it when the URL is wrong. */
  urlFrom: string;
}

/** Saves the login in a file only its owner can read or write (0600, in a 0700 directory). */
export async function saveCredentials(file: string, creds: { url: string; token: string }): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, file);
}

/** The login to use: MM_URL and MM_TOKEN win over the saved file; null when neither gives both. */
export async function loadCredentials(cfg: CliConfig): Promise<Credentials | null> {
  // Both from the environment: the file is not needed, so a broken one does not stand in the way.
  const saved = cfg.url && cfg.token ? {} : await readLoginFile(cfg.credentialsPath);
  // A saved token goes only to the URL it was saved with, never to another MM_URL.
  if (cfg.url && !cfg.token && saved.token && saved.url && !sameApiRoot(cfg.url, saved.url))
    throw new CliError(
      'CONFIG',
      `the saved token belongs to ${redactUrl(saved.url)}, not to MM_URL ${redactUrl(cfg.url)}: ` +
        'set MM_TOKEN for that URL, or run mm login --url for it',
      EXIT.USAGE,
      { file: cfg.credentialsPath },
    );
  const url = cfg.url ?? saved.url;
  const token = cfg.token ?? saved.token;
  return url && token ? { url, token, urlFrom: cfg.url ? 'MM_URL' : `the URL in ${cfg.credentialsPath}` } : null;
}

/** The saved login; empty when there is none; a usage error naming the file when it cannot be used. */
async function readLoginFile(file: string): Promise<{ url?: string; token?: string }> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw broken(file, (err as Error).message);
  }
  let saved: unknown;
  try {
    saved = JSON.parse(text);
  } catch (err) {
    throw broken(file, `not JSON: ${(err as Error).message}`);
  }
  const { url, token } = (saved ?? {}) as Record<string, unknown>;
  if (typeof saved !== 'object' || Array.isArray(saved) || !isOptionalString(url) || !isOptionalString(token))
    throw broken(file, 'not an object with the strings url and token');
  return { url, token };
}

const isOptionalString = (v: unknown): v is string | undefined => v === undefined || typeof v === 'string';

function broken(file: string, why: string): CliError {
  return new CliError(
    'CONFIG',
    `the login file ${file} cannot be used (${why}): run mm login again, or remove the file`,
    EXIT.USAGE,
    { file },
  );
}
