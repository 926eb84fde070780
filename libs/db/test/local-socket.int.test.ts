import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { DEBIAN_POSTGRES_SOCKET_DIR, overLocalSocket } from '../src/database';

/**
 * `pnpm start` reaches Postgres over its Unix socket when the server on this machine has one and
 * lets the user in there (the test machine: Debian's Postgres, trust); otherwise the URL is left
 * as it was given.
 */
describe('overLocalSocket', () => {
  const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';

  it("goes through this machine's Postgres socket, and the connection works", async () => {
    const local = await overLocalSocket(url);
    expect(new URL(local).searchParams.get('host')).toBe(DEBIAN_POSTGRES_SOCKET_DIR);
    const client = new Client({ connectionString: local });
    await client.connect();
    try {
      // A Unix socket connection has no client address.
      const { rows } = await client.query<{ addr: string | null }>('select inet_client_addr() as addr');
      expect(rows[0].addr).toBeNull();
    } finally {
      await client.end();
    }
  });

  it('keeps a database that does not exist yet on the socket (ensureDatabase makes it there)', async () => {
    const u = new URL(url);
    u.pathname = '/mm_not_made_yet_' + process.pid;
    expect(new URL(await overLocalSocket(u.toString())).searchParams.get('host')).toBe(DEBIAN_POSTGRES_SOCKET_DIR);
  });

  it('leaves TCP where there is no socket, the server is elsewhere, or a host is already named', async () => {
    const empty = mkdtempSync(path.join(os.tmpdir(), 'mm-nopg-'));
    try {
      expect(await overLocalSocket(url, empty)).toBe(url);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
    const remote = 'postgres://app@db.example.internal:5432/meeting_memory';
    expect(await overLocalSocket(remote)).toBe(remote);
    const named = `${url}?host=/somewhere/else`;
    expect(await overLocalSocket(named)).toBe(named);
  });
});
