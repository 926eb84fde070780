import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const CHECK = path.join(ROOT, 'deploy', 'lock-check.cjs');

const LOCK = `lockfileVersion: '9.0'

importers:

  .: {}

packages:

  '@ioredis/commands@1.2.0':
    resolution: {integrity: sha512-x}

  ioredis@5.4.1:
    resolution: {integrity: sha512-y}

  string_decoder@1.3.0:
    resolution: {integrity: sha512-w}

  ws@8.18.0:
    resolution: {integrity: sha512-z}
    peerDependencies:
      bufferutil: ^4.0.1

snapshots:

  ws@8.18.0(bufferutil@4.0.8): {}
`;

/** A deploy output whose node_modules/.pnpm holds these folders. */
function deployed(folders: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'lock-check-'));
  for (const f of [...folders, 'node_modules'])
    mkdirSync(path.join(dir, 'node_modules', '.pnpm', f), { recursive: true });
  writeFileSync(path.join(dir, 'node_modules', '.pnpm', 'lock.yaml'), '');
  return dir;
}

function check(folders: string[]) {
  const lock = path.join(mkdtempSync(path.join(tmpdir(), 'lock-')), 'pnpm-lock.yaml');
  writeFileSync(lock, LOCK);
  const r = spawnSync(process.execPath, [CHECK, lock, deployed(folders)], { encoding: 'utf8' });
  return { status: r.status, stderr: r.stderr };
}

/** deploy/build.sh runs the check after each `pnpm deploy`: pnpm 9 resolves version ranges again. */
describe('the deploy output against the lockfile (deploy/lock-check.cjs)', () => {
  it('passes packages at the pinned versions, scoped, with peers, and the workspace own', () => {
    expect(
      check([
        '@ioredis+commands@1.2.0',
        'ioredis@5.4.1',
        'ws@8.18.0_bufferutil@4.0.8',
        'string_decoder@1.3.0',
        '@mm+http@file+libs+http',
      ]),
    ).toEqual({ status: 0, stderr: '' });
  });

  it('fails the build, naming each package at a version the lockfile does not pin', () => {
    const r = check(['ioredis@5.4.2', '@ioredis+commands@1.2.0', 'left-pad@1.3.0']);
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(
      /2 package\(s\) not at the lockfile's versions: (ioredis@5\.4\.2, left-pad@1\.3\.0|left-pad@1\.3\.0, ioredis@5\.4\.2)/,
    );
  });
});
