import { createServer, connect, type Server, type Socket } from 'node:net';
import { Client } from 'pg';
import {
  WALLET_CHANGED_CHANNEL,
  WalletChangesListener,
  type WalletChangeSink,
} from '../src/db/wallet-changes.listener';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';

/** What the listener told its sink, in order. */
function recordingSink(): WalletChangeSink & { events: string[] } {
  const events: string[] = [];
  return {
    events,
    invalidate: (accountId) => events.push(`invalidate ${accountId ?? '*'}`),
    setEnabled: (on) => events.push(on ? 'enabled' : 'disabled'),
  };
}

/**
 * A TCP proxy to Postgres that passes every message but the server's notifications ('A'): a
 * connection that stays alive and answers queries while its LISTEN hears nothing, as behind
 * PgBouncer in transaction mode (the LISTEN is left on a server connection the client no longer has).
 */
async function notificationDroppingProxy(target: URL): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    client.pipe(upstream);
    let held = Buffer.alloc(0);
    upstream.on('data', (chunk: Buffer) => {
      held = Buffer.concat([held, chunk]);
      const out: Buffer[] = [];
      while (held.length >= 5) {
        const size = 1 + held.readUInt32BE(1);
        if (held.length < size) break;
        if (held[0] !== 0x41) out.push(held.subarray(0, size));
        held = held.subarray(size);
      }
      if (out.length) client.write(Buffer.concat(out));
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  url.searchParams.delete('host');
  return {
    url: url.toString(),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

async function notify(payload: string): Promise<void> {
  const c = new Client({ connectionString: DATABASE_URL });
  await c.connect();
  try {
    await c.query('select pg_notify($1, $2)', [WALLET_CHANGED_CHANNEL, payload]);
  } finally {
    await c.end();
  }
}

const until = async (check: () => boolean, ms = 5_000) => {
  for (const start = Date.now(); !check() && Date.now() - start < ms; ) await new Promise((r) => setTimeout(r, 20));
};

describe('the wallet-change listener proves its LISTEN before the whoami cache is trusted', () => {
  it('enables the cache once its own probe is heard back, then passes ledger changes on', async () => {
    const sink = recordingSink();
    const listener = new WalletChangesListener(DATABASE_URL, sink, { warn: () => undefined }, 2_000);
    await listener.start();
    try {
      expect(sink.events).toEqual(['enabled']);
      await notify('acc_listener_1');
      await until(() => sink.events.length > 1);
      expect(sink.events).toEqual(['enabled', 'invalidate acc_listener_1']);
    } finally {
      await listener.stop();
    }
  });

  it('never enables the cache on a connection that answers queries but hears no notification, and says why', async () => {
    const proxy = await notificationDroppingProxy(new URL(DATABASE_URL));
    const sink = recordingSink();
    const warnings: string[] = [];
    const listener = new WalletChangesListener(
      proxy.url,
      sink,
      { warn: (fields: unknown) => void warnings.push(String((fields as { err?: unknown }).err ?? '')) },
      300,
    );
    try {
      await listener.start();
      await until(() => warnings.length > 0);
      expect(sink.events).not.toContain('enabled');
      expect(warnings[0]).toMatch(/not heard back.*DATABASE_LISTEN_URL/);
      // The connection itself works: a plain query through the same proxy answers.
      const c = new Client({ connectionString: proxy.url });
      await c.connect();
      await expect(c.query('select 1 as one')).resolves.toMatchObject({ rows: [{ one: 1 }] });
      await c.end();
    } finally {
      await listener.stop();
      await proxy.close();
    }
  });
});
