import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TLSSocket } from 'node:tls';
import { sql } from 'kysely';
import { openDatabase } from '@mm/db';

/**
 * A managed Postgres over TLS (RDS, Cloud SQL, Azure: a server certificate from the provider's own
 * CA), as the services and their migration step reach it. node-postgres 8 reads `sslmode=require`
 * as verify-full against Node's CAs, so `require` (what psql, the bootstrap Job and the providers'
 * documentation mean: encrypted) failed every migrate step with "unable to verify the first
 * certificate" after a multi-line warning, while the bootstrap Job passed with PGSSLMODE=require.
 *
 * The server is a stand-in that speaks the start of the protocol: it accepts the SSLRequest, makes
 * the TLS handshake with a certificate of a CA of its own, then refuses the startup message with
 * an error of its own. Seeing that error means TLS was made as the URL asked.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const work = mkdtempSync(path.join(tmpdir(), 'mm-pg-tls-'));
const ACCEPTED = 'stand-in: TLS accepted, no database here';
let server: Server;
let port = 0;
let handshakes = 0;

/** A CA, a server certificate for 127.0.0.1 signed by it (as a provider's CA would) and another CA. */
function makeCertificates(): { key: string; cert: string } {
  const at = (f: string) => path.join(work, f);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
  const ca = (name: string) =>
    openssl(
      'req',
      '-x509',
      '-new',
      '-nodes',
      '-newkey',
      'rsa:2048',
      '-days',
      '1',
      '-subj',
      `/CN=${name}`,
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.crt`),
    );
  ca('ca');
  // A CA that signed nothing here: a client trusting only it must refuse the server.
  ca('other-ca');
  openssl(
    'req',
    '-new',
    '-nodes',
    '-newkey',
    'rsa:2048',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    at('server.key'),
    '-out',
    at('server.csr'),
  );
  writeFileSync(at('ext.cnf'), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
  openssl(
    'x509',
    '-req',
    '-in',
    at('server.csr'),
    '-CA',
    at('ca.crt'),
    '-CAkey',
    at('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-out',
    at('server.crt'),
    '-extfile',
    at('ext.cnf'),
  );
  return { key: readFileSync(at('server.key'), 'utf8'), cert: readFileSync(at('server.crt'), 'utf8') };
}

/** An ErrorResponse ('E'): severity FATAL, code 28000, the stand-in's message. */
function errorResponse(message: string): Buffer {
  const fields = Buffer.from(`SFATAL\0C28000\0M${message}\0\0`);
  const head = Buffer.alloc(5);
  head.write('E', 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

function standIn(tls: { key: string; cert: string }): Server {
  return createServer((socket: Socket) => {
    socket.on('error', () => undefined);
    socket.once('data', (first) => {
      // SSLRequest: length 8, code 80877103.
      if (first.length < 8 || first.readInt32BE(4) !== 80877103) {
        socket.end(errorResponse('stand-in: TLS required'));
        return;
      }
      socket.write('S');
      const secure = new TLSSocket(socket, { isServer: true, ...tls });
      secure.on('error', () => undefined);
      secure.on('secure', () => (handshakes += 1));
      secure.once('data', () => secure.end(errorResponse(ACCEPTED)));
    });
  });
}

/** `node src/main.js migrate` as the migrate initContainer runs it: DATABASE_URL alone. */
function migrateStep(query: string): Promise<{ code: number | null; out: string }> {
  const url = `postgres://mm_series:pw@127.0.0.1:${port}/meeting_memory?${query}`;
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(ROOT, 'services', 'series', 'src', 'main.ts'), 'migrate'],
      { cwd: ROOT, env: { PATH: process.env.PATH, DATABASE_URL: url }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

beforeAll(async () => {
  server = standIn(makeCertificates());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

describe('a DATABASE_URL with TLS to a server signed by its own CA', () => {
  it('sslmode=require: the migrate step makes TLS (libpq: encrypted, not verified) and prints one line', async () => {
    const before = handshakes;
    const r = await migrateStep('sslmode=require');
    expect(handshakes).toBe(before + 1);
    expect({ code: r.code, lines: r.out.trimEnd().split('\n') }).toEqual({
      code: 1,
      lines: [`series migrate failed: ${ACCEPTED}`],
    });
  });

  it('sslmode=verify-full verifies: refused without the CA, made with sslrootcert naming it', async () => {
    const refused = await migrateStep('sslmode=verify-full');
    expect(refused.out).toMatch(/series migrate failed: .*(unable to verify|self[- ]signed)/);
    const before = handshakes;
    const made = await migrateStep(`sslmode=verify-full&sslrootcert=${path.join(work, 'ca.crt')}`);
    expect(handshakes).toBe(before + 1);
    expect(made.out.trimEnd()).toBe(`series migrate failed: ${ACCEPTED}`);
  });

  it('sslmode=require with sslrootcert of another CA is refused (libpq: verify-ca)', async () => {
    const other = await migrateStep(`sslmode=require&sslrootcert=${path.join(work, 'other-ca.crt')}`);
    expect(other.out).toMatch(/series migrate failed: .*(unable to verify|self[- ]signed|certificate)/);
  });

  it("sslmode=require: a service's own pool makes TLS too", async () => {
    const before = handshakes;
    const { db } = openDatabase({
      url: `postgres://mm_series:pw@127.0.0.1:${port}/meeting_memory?sslmode=require`,
      schema: 'series',
    });
    await expect(sql`select 1`.execute(db)).rejects.toThrow(ACCEPTED);
    await db.destroy();
    expect(handshakes).toBe(before + 1);
  });
});
