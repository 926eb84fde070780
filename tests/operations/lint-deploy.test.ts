import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const bin = (name: string) => path.join(ROOT, 'node_modules', '.bin', name);

// No Docker engine runs here: the files are checked by real linters instead (README, "Images").
describe('the deploy files pass their linters', () => {
  it("deploy/Dockerfile passes dockerfile-utils lint (the Docker language server's validator)", () => {
    const r = spawnSync(bin('dockerfile-utils'), ['lint', path.join(ROOT, 'deploy', 'Dockerfile')], {
      encoding: 'utf8',
    });
    expect(r.stdout + r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('deploy/compose.yaml passes dclint (the Compose specification schema and its rules)', () => {
    const r = spawnSync(bin('dclint'), [path.join(ROOT, 'deploy', 'compose.yaml')], { encoding: 'utf8' });
    expect(r.stdout.trim() + r.stderr.trim()).toBe('');
    expect(r.status).toBe(0);
  });

  it('the linters catch a broken file (they are not empty runs)', () => {
    const r = spawnSync(bin('dockerfile-utils'), ['lint', '/dev/stdin'], {
      input: 'FROM node\nEXPOSE abc\n',
      encoding: 'utf8',
    });
    expect(r.status).not.toBe(0);
  });
});
