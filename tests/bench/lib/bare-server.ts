/**
 * The comparison the gateway is measured against: a bare node:http server in its own process
 * (one process, no framework, no logging) answering every request with the same bytes the
 * gateway answers. Its throughput is what this machine gives one Node process doing nothing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { BenchError } from './types';

const SERVER = `
const http = require('node:http');
const body = Buffer.from(process.env.BARE_BODY, 'utf8');
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length };
const server = http.createServer((req, res) => { res.writeHead(200, headers); res.end(body); });
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => process.stdout.write(server.address().port + '\\n'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
`;

export interface BareServer {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startBareServer(body: string): Promise<BareServer> {
  const child: ChildProcess = spawn(process.execPath, ['-e', SERVER], {
    env: { ...process.env, BARE_BODY: body },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new BenchError('the bare node:http server did not start within 10 s')),
      10_000,
    );
    child.once('exit', (code) => reject(new BenchError(`the bare node:http server exited (${code}) before listening`)));
    child.stdout?.once('data', (d: Buffer) => {
      clearTimeout(timer);
      resolve(Number(d.toString().trim()));
    });
  });
  if (!child.pid) throw new BenchError('the bare node:http server has no pid');
  const pid = child.pid;
  return {
    url: `http://127.0.0.1:${port}`,
    pid,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}
