import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { Redis } from 'ioredis';
import pino from 'pino';
import { migrateSchema, openDatabase } from '@mm/db';
import { walletVersionKey } from '@mm/http';
import type { Pool } from 'pg';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import { WalletService } from '../src/services/wallet.service';
import { WalletSummaryCache } from '../src/services/wallet-summary.cache';
import { WalletVersions } from '../src/services/wallet-versions';

// Every money move gives its account a new wallet version before it is answered: that, not the
// ledger's notifications (which come later), is what lets a write's author read it back through a
// gateway that keeps whoami's answers. No listener here, so only the write path can set it.

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
const prefix = `wv${randomBytes(4).toString('hex')}.`;
const warnings: string[] = [];
const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });

let db: Kysely<Database>;
let pool: Pool;
let redis: Redis;
let wallet: WalletService;
beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'account', migrations);
  ({ db, pool } = openDatabase<Database>({ url: DATABASE_URL, schema: 'account', poolSize: 2 }));
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', { keyPrefix: prefix, enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500 });
  await new Promise((r) => redis.once('ready', r));
  wallet = new WalletService(db, { dailyMeetingLimit: 100, dailyAskLimit: 100, trialOverdraftMinutes: 0 }, pool, new WalletSummaryCache(), new WalletVersions(redis, logger));
});
afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length) await redis.del(...keys.map((k) => k.slice(prefix.length)));
  redis.disconnect();
  await db.destroy();
});

describe('wallet versions', () => {
  it('are new when each kind of money move resolves', async () => {
    const accountId = `acc_${randomBytes(6).toString('hex')}`;
    const version = () => redis.get(walletVersionKey(accountId));
    const seen = new Set<string | null>([await version()]);
    const expectNew = async () => {
      const v = await version();
      expect(v).toMatch(/^[\w-]{36}$/);
      expect(seen.has(v)).toBe(false);
      seen.add(v);
    };
    const spend = (reference: string, minutes: number) => ({ accountId, reference, minutes, tokenId: null, dailyMinuteCap: null, showBalance: true });
    await wallet.credit(accountId, 60, 'grant', `${accountId}:c1`);
    await expectNew();
    expect((await wallet.hold(spend(`${accountId}:m1`, 5))).held).toBe(true);
    await expectNew();
    await wallet.capture(accountId, `${accountId}:m1`);
    await expectNew();
    expect((await wallet.hold(spend(`${accountId}:m2`, 5))).held).toBe(true);
    await expectNew();
    await wallet.release(accountId, `${accountId}:m2`);
    await expectNew();
    expect((await wallet.chargeAsk(spend(`${accountId}:a1`, 1))).charged).toBe(true);
    await expectNew();
    // A replay changes nothing in the ledger, and still announces (cheaper than knowing).
    await wallet.credit(accountId, 60, 'grant', `${accountId}:c1`);
    await expectNew();
  });

  it('never hold a money move back while Redis is away; the service then marks nothing keepable', async () => {
    const away = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 500, lazyConnect: true, retryStrategy: () => null });
    away.on('error', () => undefined);
    const versions = new WalletVersions(away, logger);
    const alone = new WalletService(db, { dailyMeetingLimit: 100, dailyAskLimit: 100, trialOverdraftMinutes: 0 }, pool, new WalletSummaryCache(), versions);
    const accountId = `acc_${randomBytes(6).toString('hex')}`;
    const started = Date.now();
    expect(await alone.credit(accountId, 9, 'grant', `${accountId}:c1`)).toEqual({ balanceMinutes: 9 });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(versions.live).toBe(false);
    expect(warnings.length).toBeGreaterThan(0);
    away.disconnect();
  });
});
