import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { CliConfig } from './config';

export interface Credentials {
  url: string;
  token: string;
}

/** Saves the login in a file only its owner can read or write (0600, in a 0700 directory). */
export async function saveCredentials(file: string, creds: Credentials): Promise<void> {
  await fs.mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  await fs.writeFile(tmp, `${JSON.stringify(creds, null, 2)}\n`, { mode: 0o600 });
  await fs.chmod(tmp, 0o600);
  await fs.rename(tmp, file);
}

/** The login to use: MM_URL and MM_TOKEN win over the saved file; null when neither gives both. */
export async function loadCredentials(cfg: CliConfig): Promise<Credentials | null> {
  const saved = await fs.readFile(cfg.credentialsPath, 'utf8').then(
    (t) => JSON.parse(t) as Partial<Credentials>,
    () => ({}) as Partial<Credentials>,
  );
  const url = cfg.url ?? saved.url;
  const token = cfg.token ?? saved.token;
  return url && token ? { url, token } : null;
}
