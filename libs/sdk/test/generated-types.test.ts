import { execFileSync } from 'node:child_process';
import path from 'node:path';

describe("the SDK's generated types", () => {
  it('match a fresh generation from openapi.json (run pnpm --filter @mm/sdk generate after changing the contract)', () => {
    const script = path.join(__dirname, '..', 'scripts', 'generate.ts');
    // Throws (exit 1, with the file named) when the committed text differs from the fresh one.
    const out = execFileSync(process.execPath, ['--import', 'tsx', script, '--check'], {
      cwd: path.join(__dirname, '..'),
      encoding: 'utf8',
    });
    expect(out).toContain('up to date');
  }, 60_000);
});
