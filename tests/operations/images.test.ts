import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { dockerfileTargets } from '../../deploy/images';
import { loadConfig as webConfig } from '../../services/web/src/config';

/**
 * Issue 26, images: what `pnpm images` (deploy/images.ts, not run in `pnpm test`: minutes per target)
 * builds and the base it builds on. The builds themselves found that the app refused to start in
 * production without NATS, which it never opens; that stays fixed here. It does open Postgres (its
 * share links), so DATABASE_URL is required of it as of every service.
 */
const ROOT = path.resolve(__dirname, '..', '..');

describe('the images', () => {
  it('has a target for every service, the app and the MCP server', () => {
    expect(dockerfileTargets()).toEqual([
      'gateway',
      'account',
      'recordings',
      'pipeline',
      'series',
      'ask',
      'events',
      'web',
      'mcp',
    ]);
  });

  it("builds on Node 24, the same release in the Dockerfile default and the local base's lock, pinned by integrity", () => {
    const lock = readFileSync(path.join(ROOT, 'deploy', 'base-image.lock'), 'utf8');
    const [, version, integrity] = /^node (\S+) (\S+)$/m.exec(lock)!;
    expect(version).toMatch(/^24\./);
    expect(integrity).toMatch(/^sha512-[A-Za-z0-9+/]{86}==$/);
    expect(readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8')).toContain(
      `ARG NODE_IMAGE=node:${version}-bookworm-slim`,
    );
    // Every Debian package of the base by version.
    expect(lock.match(/^deb \S+ \S+$/gm)!.length).toBeGreaterThan(50);
  });

  it('starts the app in production without NATS_URL (it opens no bus), never without DATABASE_URL (its share links)', () => {
    const env = {
      NODE_ENV: 'production',
      INTERNAL_JWT_SECRET: randomBytes(32).toString('hex'),
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://mm_web:pw@db.internal:5432/meeting_memory',
    };
    expect(() => webConfig(env)).not.toThrow();
    expect(() => webConfig({ ...env, DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL/);
    // Unset, the app fell back to the development database (postgres@127.0.0.1) and failed later
    // with a migration message instead of naming the variable.
    expect(() => webConfig({ ...env, DATABASE_URL: '' })).toThrow(/DATABASE_URL must be set outside development/);
  });
});
