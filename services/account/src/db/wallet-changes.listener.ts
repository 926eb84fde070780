import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { libpqUrl } from '@mm/db';
import type { Logger } from 'pino';

/** Channel the ledger's trigger (migration 0004) notifies, with the account id as payload ('*' for all). */
export const WALLET_CHANGED_CHANNEL = 'account_wallet_changed';

export interface WalletChangeSink {
  invalidate(accountId: string | null): void;
  setEnabled(on: boolean): void;
}

/**
 * The channel each listener proves its LISTEN on: it notifies it with a payload of its own and
 * must hear it back. A live connection is not enough: behind a transaction pooler (PgBouncer in
 * transaction mode) the LISTEN is lost when its transaction ends while `select 1` still works, and
 * every other replica would serve whoami balances from a cache nothing invalidates.
 */
export const WALLET_PROBE_CHANNEL = 'account_wallet_probe';

/** How often the idle LISTEN connection proves it is alive and listening, and how long a proof may take. */
const HEARTBEAT_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * Listens for ledger changes on a connection of its own and tells the sink. The sink is enabled
 * only while the LISTEN is proven in place; on any error it is disabled, and the connection is
 * rebuilt with growing waits. An idle connection can die without a word (a NAT or proxy dropping
 * it), and a pooler can drop the LISTEN while the connection lives, so right after the LISTEN and
 * every few seconds it notifies itself (WALLET_PROBE_CHANNEL) with TCP keepalive on; a probe that
 * fails or is not heard back in time counts as a lost connection. `url` is DATABASE_LISTEN_URL when
 * set (a direct connection, when DATABASE_URL goes through a transaction pooler).
 */
export class WalletChangesListener {
  private client: Client | null = null;
  private stopped = false;
  private retryMs = 250;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  /** Probes sent and not heard back yet, by payload. */
  private readonly probes = new Map<string, () => void>();

  constructor(
    private readonly url: string,
    private readonly sink: WalletChangeSink,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly probeTimeoutMs = HEARTBEAT_TIMEOUT_MS,
  ) {}

  async start(): Promise<void> {
    await this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    const client = new Client({ connectionString: libpqUrl(this.url), keepAlive: true });
    const lost = (err?: unknown) => {
      if (this.client !== client) return;
      this.client = null;
      if (this.heartbeat) clearInterval(this.heartbeat);
      this.heartbeat = null;
      this.sink.setEnabled(false);
      client.removeAllListeners();
      client.on('error', () => undefined);
      void client.end().catch(() => undefined);
      if (this.stopped) return;
      this.logger.warn(
        { err: err ? String(err) : undefined, retryMs: this.retryMs },
        'wallet change notifications lost: whoami reads the ledger until they are back',
      );
      this.schedule();
    };
    client.on('error', lost);
    client.on('end', () => lost());
    client.on('notification', (n) => {
      if (n.channel === WALLET_PROBE_CHANNEL) {
        // Every replica hears every probe: only its own answers it.
        this.probes.get(n.payload ?? '')?.();
        return;
      }
      if (n.channel !== WALLET_CHANGED_CHANNEL) return;
      this.sink.invalidate(!n.payload || n.payload === '*' ? null : n.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`listen ${WALLET_CHANGED_CHANNEL}`);
      await client.query(`listen ${WALLET_PROBE_CHANNEL}`);
      await this.probe(client);
      if (this.client !== client) return;
      this.retryMs = 250;
      // Anything cached before the LISTEN may have missed a change.
      this.sink.setEnabled(true);
      this.heartbeat = setInterval(() => void this.probe(client).catch(lost), HEARTBEAT_MS);
      this.heartbeat.unref();
    } catch (err) {
      lost(err);
    }
  }

  /** Notifies the probe channel with a payload of its own and waits to hear it back on the LISTEN. */
  private async probe(client: Client): Promise<void> {
    const payload = randomBytes(12).toString('base64url');
    let timer: NodeJS.Timeout | undefined;
    const heard = new Promise<void>((resolve, reject) => {
      this.probes.set(payload, resolve);
      timer = setTimeout(
        () =>
          reject(
            new Error(
              'a notification sent on this connection was not heard back: is DATABASE_URL a transaction ' +
                'pooler? set DATABASE_LISTEN_URL to a direct (or session-pooled) connection',
            ),
          ),
        this.probeTimeoutMs,
      );
      timer.unref();
    });
    try {
      // Together: a query that never comes back fails on the same timeout as a probe never heard.
      await Promise.all([client.query('select pg_notify($1, $2)', [WALLET_PROBE_CHANNEL, payload]), heard]);
    } finally {
      clearTimeout(timer);
      this.probes.delete(payload);
    }
  }

  private schedule(): void {
    if (this.timer || this.stopped) return;
    const wait = this.retryMs;
    this.retryMs = Math.min(this.retryMs * 2, 10_000);
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, wait);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    const client = this.client;
    this.client = null;
    this.sink.setEnabled(false);
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
