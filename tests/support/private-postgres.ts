/**
 * A PostgreSQL server of a test's own (initdb in a temporary directory, its own port, trust auth),
 * so a fault run can restart its database without touching the machine's shared server that every
 * other test run and engineer uses. Uses the binaries of the installed server (deploy/install.sh);
 * as root it runs them as the `postgres` user, since PostgreSQL refuses to run as root.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import path from 'node:path';

export interface PrivatePostgres {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url(database: string): string;
  /** Stops and starts the server (fast shutdown: connections are cut, as in a failover). */
  restart(): void;
  stop(): void;
}

function binDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root) ? readdirSync(root).sort((a, b) => Number(b) - Number(a)) : [];
  if (!versions.length)
    throw new Error('no PostgreSQL server binaries under /usr/lib/postgresql (run deploy/install.sh)');
  return path.join(root, versions[0], 'bin');
}

export function startPrivatePostgres(port: number): PrivatePostgres {
  const bin = binDir();
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-pg-'));
  const data = path.join(dir, 'data');
  const asRoot = userInfo().uid === 0;
  if (asRoot)
    chownSync(
      dir,
      Number(execFileSync('id', ['-u', 'postgres']).toString()),
      Number(execFileSync('id', ['-g', 'postgres']).toString()),
    );
  const run = (tool: string, args: string[]): void => {
    const cmd = path.join(bin, tool);
    execFileSync(asRoot ? 'runuser' : cmd, asRoot ? ['-u', 'postgres', '--', cmd, ...args] : args, {
      stdio: 'pipe',
      timeout: 120_000,
    });
  };
  run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8']);
  const ctl = (action: string): void =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'server.log'),
      '-w',
      '-m',
      'fast',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      action,
    ]);
  ctl('start');
  let stopped = false;
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    restart: () => ctl('restart'),
    stop: () => {
      if (stopped) return;
      stopped = true;
      try {
        ctl('stop');
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
