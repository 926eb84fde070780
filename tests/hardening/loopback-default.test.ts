import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ConfigError, createLogger, EnvReader, readCommonConfig, serve } from '@mm/http';
import { devInternalSecret } from '../../deploy/dev-secret';

/**
 * Issue 25, item 4: an internal service listens on loopback unless HOST says otherwise, the
 * quick start signs principals with a secret made for this install (not one written in the
 * source), and a service listening beyond loopback refuses the source's development secret.
 */
const logger = createLogger('loopback-test', 'silent');
const common = (env: NodeJS.ProcessEnv) => {
  const r = new EnvReader(env);
  const config = readCommonConfig(r, 'account');
  return r.done('account', config);
};

describe('where a service listens', () => {
  it('listens on 127.0.0.1 unless HOST says otherwise', async () => {
    expect(common({}).host).toBe('127.0.0.1');
    const running = await serve(
      (_req, res) => res.end('ok'),
      { port: 0, host: common({}).host },
      logger,
      async () => undefined,
    );
    try {
      expect(running.host).toBe('127.0.0.1');
    } finally {
      await running.close();
    }
    expect(common({ HOST: '0.0.0.0', INTERNAL_JWT_SECRET: 'Kq3vN8pLz2Rt6Wy1Xb5Mc9Hd4Jf7Gs0A' }).host).toBe('0.0.0.0');
  });

  it('refuses the development secret when it listens beyond loopback', () => {
    expect(() => common({ HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(() => common({ HOST: '0.0.0.0' })).toThrow(/INTERNAL_JWT_SECRET.*development secret/);
    expect(() => common({ HOST: '::1' })).not.toThrow();
    expect(() => common({})).not.toThrow();
  });
});

describe("the quick start's internal secret", () => {
  it('is made once per install, kept in data/ readable by its owner only, and strong', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mm-secret-'));
    const first = devInternalSecret(dir);
    expect(devInternalSecret(dir)).toBe(first);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(path.join(dir, 'internal-jwt-secret')).mode & 0o777).toBe(0o600);
    expect(devInternalSecret(mkdtempSync(path.join(tmpdir(), 'mm-secret-')))).not.toBe(first);
    // The generated one is accepted beyond loopback; the source's is not.
    expect(common({ HOST: '0.0.0.0', INTERNAL_JWT_SECRET: first }).host).toBe('0.0.0.0');
  });
});
