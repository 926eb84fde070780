/**
 * Starts a nats-server with authentication: one user per service with the permissions the bus
 * table gives it, and the operator (libs/bus/src/auth.ts). The launcher (`pnpm start`), the tests
 * and the benchmarks run their services against such a broker; nothing runs on an open one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { natsServerConfig, newNatsPasswords } from '../libs/bus/src/auth';

export interface Broker {
  url: string;
  /** NATS_PASSWORD_<USER> for every service and the operator: what the services' environment needs. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** A port nobody listens on now. */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** The passwords kept in `dir/credentials.json` (made once, readable by the owner only), or new ones when `keep` is false. */
function passwordsIn(dir: string, keep: boolean): Record<string, string> {
  const file = path.join(dir, 'credentials.json');
  if (keep && existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>;
  const passwords = newNatsPasswords();
  writeFileSync(file, JSON.stringify(passwords, null, 2), { mode: 0o600 });
  return passwords;
}

async function listening(port: number, child: ChildProcess, timeoutMs = 15_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`nats-server exited with ${child.exitCode}`);
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, '127.0.0.1', () => {
        s.destroy();
        resolve(true);
      });
      s.once('error', () => resolve(false));
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nats-server did not listen on ${port} in time`);
}

/**
 * Writes the configuration into `dir` (JetStream under `dir/jetstream`) and starts the server.
 * `namespace` goes before every subject of the permissions (`*.` for the tests' per-stack namespaces).
 */
export async function startBroker(opts: {
  dir: string;
  port?: number;
  namespace?: string;
  keepPasswords?: boolean;
  log?: boolean;
}): Promise<Broker> {
  mkdirSync(opts.dir, { recursive: true });
  chmodSync(opts.dir, 0o700);
  const port = opts.port ?? (await freePort());
  const passwords = passwordsIn(opts.dir, opts.keepPasswords ?? false);
  const conf = path.join(opts.dir, 'nats.conf');
  writeFileSync(
    conf,
    natsServerConfig({ port, storeDir: path.join(opts.dir, 'jetstream'), passwords, namespace: opts.namespace }),
    { mode: 0o600 },
  );
  const bin = ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find(existsSync) ?? 'nats-server';
  const child = spawn(bin, ['-c', conf], { stdio: opts.log ? 'inherit' : 'ignore' });
  await listening(port, child);
  const env = Object.fromEntries(
    Object.entries(passwords).map(([user, pass]) => [`NATS_PASSWORD_${user.toUpperCase()}`, pass]),
  );
  return {
    url: `nats://127.0.0.1:${port}`,
    env,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
