import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The INTERNAL_JWT_SECRET of a development install (`pnpm start`): made once in `dir/internal-jwt-secret`
 * (readable by the owner only, like the NATS passwords in data/nats), so no two installs share
 * it and nobody can forge a principal from the source's default (libs/platform config.ts).
 */
export function devInternalSecret(dir: string): string {
  const file = path.join(dir, 'internal-jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(36).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
