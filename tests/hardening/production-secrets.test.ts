import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { EnvReader, secretWeakness } from '@mm/http';

const root = path.resolve(__dirname, '../..');
const strong = () => randomBytes(32).toString('base64url');

describe('secrets in production mode', () => {
  it.each([
    ['the compose placeholder', 'change-me-to-a-long-random-secret-of-32-chars', 'a placeholder'],
    ['the dev overlay value', 'dev-only-secret-change-me-0123456789abcdef', 'a placeholder'],
    ['a short key', 'Zq8vN2kLp', 'too short'],
    ['a long run of few characters', 'abababababababababababababababababab', 'too simple'],
  ])('calls %s weak', (_name, value, why) => {
    expect(secretWeakness(value)).toBe(why);
  });

  it('takes a random key', () => {
    for (let i = 0; i < 50; i++) expect(secretWeakness(strong())).toBeNull();
  });

  it('names a weak admin key, even though it is optional', () => {
    const r = new EnvReader({ NODE_ENV: 'production', ADMIN_API_KEY: 'dev-admin-key' });
    r.optionalSecret('ADMIN_API_KEY');
    expect(() => r.done('gateway', {})).toThrow(/ADMIN_API_KEY is too short/);
  });

  it('refuses to start the gateway with weak secrets, one line naming each', () => {
    const weak = {
      ADMIN_API_KEY: 'change-me',
      INTERNAL_JWT_SECRET: 'change-me-to-a-long-random-secret-of-32-chars',
      TOKEN_HASH_KEY: 'x'.repeat(40),
    };
    const env = { ...process.env, NODE_ENV: 'production', PORT: '0', ...weak };
    const run = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'services/gateway/src/main.ts')], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 30_000,
    });
    expect(run.status).toBe(1);
    for (const name of Object.keys(weak)) {
      const lines = run.stderr.split('\n').filter((l) => l.includes(name));
      expect(lines).toEqual([expect.stringMatching(new RegExp(`${name} is (a placeholder|too short|too simple)`))]);
    }
  }, 40_000);
});
