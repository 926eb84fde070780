import { Client } from 'pg';
import { libpqUrl } from '@mm/db';
import type { Logger } from 'pino';

/** Channel the ledger's trigger (migration 0004) notifies, with the account id as payload ('*' for all). */
export const WALLET_CHANGED_CHANNEL = 'account_wallet_changed';

export interface WalletChangeSink {
  invalidate(accountId: string | null): void;
  setEnabled(on: boolean): void;
}

/** How often the idle LISTEN connection proves it is alive, and how long a proof may take. */
const HEARTBEAT_MS = 10_000;
const HEARTBEAT_TIMEOUT_MS = 5_000;

/**
 * Listens for ledger changes on a connection of its own and tells the sink. The sink is enabled
 * only while the LISTEN is in place; on any error it is disabled, and the connection is rebuilt
 * with growing waits. An idle connection can die without a word (a NAT or proxy dropping it), so
 * it sends a query every few seconds with TCP keepalive on; a query that fails or does not come
 * back in time counts as a lost connection.
 */
export class WalletChangesListener {
  private client: Client | null = null;
  private stopped = false;
  private retryMs = 250;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly sink: WalletChangeSink,
    private readonly logger: Pick<Logger, 'warn'>,
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
      if (n.channel !== WALLET_CHANGED_CHANNEL) return;
      this.sink.invalidate(!n.payload || n.payload === '*' ? null : n.payload);
    });
    this.client = client;
    try {
      await client.connect();
      await client.query(`listen ${WALLET_CHANGED_CHANNEL}`);
      if (this.client !== client) return;
      this.retryMs = 250;
      // Anything cached before the LISTEN may have missed a change.
      this.sink.setEnabled(true);
      this.heartbeat = setInterval(() => {
        const timeout = new Promise((_, reject) =>
          setTimeout(() => reject(new Error('heartbeat timed out')), HEARTBEAT_TIMEOUT_MS).unref(),
        );
        Promise.race([client.query('select 1'), timeout]).catch(lost);
      }, HEARTBEAT_MS);
      this.heartbeat.unref();
    } catch (err) {
      lost(err);
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
