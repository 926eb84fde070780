import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { buildOpenApi } from '@mm/contract';

const run = promisify(execFile);

/** Both checkers are separate programs (one is ESM-only), so each runs in its own node process. */
describe('the generated openapi.json', () => {
  let dir: string;
  let file: string;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'mm-openapi-'));
    file = join(dir, 'openapi.json');
    writeFileSync(file, JSON.stringify(buildOpenApi({ serverUrl: 'http://127.0.0.1:8080/api/v1' }), null, 2));
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('passes the OpenAPI 3.1 schema validator', async () => {
    const validator = pathToFileURL(require.resolve('@seriousme/openapi-schema-validator')).href;
    const script = `
      const { Validator } = await import(${JSON.stringify(validator)});
      const v = new Validator();
      const res = await v.validate(${JSON.stringify(file)});
      console.log(JSON.stringify({ valid: res.valid, version: v.version, errors: res.errors ?? null }));
    `;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], {
      maxBuffer: 16 * 1024 * 1024,
    });
    const result = JSON.parse(stdout) as { valid: boolean; version: string; errors: unknown };
    expect(result.errors).toBeNull();
    expect(result).toMatchObject({ valid: true, version: '3.1' });
  });

  it('has no errors and no warnings under redocly lint (recommended-strict, license rule off)', async () => {
    // No license is published for this API, so the one rule that asks for it cannot apply.
    writeFileSync(
      join(dir, 'redocly.yaml'),
      'extends:\n  - recommended-strict\nrules:\n  info-license: off\n  info-license-url: off\n',
    );
    const cli = join(dirname(require.resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
    let stdout: string;
    try {
      ({ stdout } = await run(
        process.execPath,
        [cli, 'lint', file, '--config', join(dir, 'redocly.yaml'), '--format=json'],
        {
          cwd: dir,
          env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
          maxBuffer: 16 * 1024 * 1024,
        },
      ));
    } catch (err) {
      // A non-zero exit still prints the JSON report; show it.
      stdout = (err as { stdout?: string }).stdout ?? '';
      if (!stdout) throw err;
    }
    const report = JSON.parse(stdout.slice(stdout.indexOf('{'))) as {
      totals: { errors: number; warnings: number };
      problems: unknown[];
    };
    expect(report.problems).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 120000);
});
