import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { createLogger } from '@mm/http';
import type { ResolvedToken } from '../src/db/access.repository';
import { AccessGate } from '../src/services/access-gate';

/**
 * The gate against a real Redis and a repository that counts its lookups: checksum-valid tokens
 * no one holds (anyone can make them) are counted against their address before any lookup, and
 * neither cost a lookup each time they repeat nor push live tokens out of the cache.
 */
const logger = createLogger('access-gate-test', 'silent');
const JUNK_BUDGET = 5;

function liveToken(id: string): ResolvedToken {
  return {
    tokenId: id,
    name: id,
    scopes: ['account:read'],
    expiresAt: null,
    revoked: false,
    dailyMinuteCap: null,
    accountId: `acc_${id}`,
    displayName: null,
    features: { series: true, ask: true, videoUpload: true, memory: true },
    account: { developerMode: true, approved: true, switches: { API_WRITE_ENABLED: true, API_QUERY_ENABLED: true } },
  } as ResolvedToken;
}

class CountingRepo {
  lookups: string[] = [];
  constructor(private readonly live: Map<string, ResolvedToken>) {}
  async findTokensByHashes(hashes: readonly string[]): Promise<Map<string, ResolvedToken>> {
    this.lookups.push(...hashes);
    return new Map(hashes.filter((h) => this.live.has(h)).map((h) => [h, this.live.get(h)!]));
  }
  async accessVersion(): Promise<string> {
    return '1';
  }
  async tokensDisabled(): Promise<boolean> {
    return false;
  }
}

let redis: Redis;
beforeAll(() => {
  redis = new Redis(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', {
    keyPrefix: `gate-${randomBytes(4).toString('hex')}:`,
  });
});
afterAll(() => redis.quit());

const fake = () => randomBytes(32).toString('base64url');
const address = () => `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::1`;

function gateWith(live: Map<string, ResolvedToken>, maxCachedTokens?: number) {
  const repo = new CountingRepo(live);
  const gate = new AccessGate(repo, redis, {
    rateLimitScale: 1,
    ipRateLimit: 50_000,
    junkRateLimit: JUNK_BUDGET,
    logger,
    maxCachedTokens,
  });
  return { repo, gate };
}

it('looks up unknown tokens only within the address junk budget, then refuses them unlooked', async () => {
  const { repo, gate } = gateWith(new Map());
  const ip = address();
  const results = [];
  for (let i = 0; i < JUNK_BUDGET + 5; i++) results.push(await gate.check(fake(), 'read', ip));
  expect(repo.lookups).toHaveLength(JUNK_BUDGET);
  expect(results.slice(0, JUNK_BUDGET).every((r) => r.token === null && !r.junkLimited)).toBe(true);
  expect(results.slice(JUNK_BUDGET).every((r) => r.junkLimited && (r.retryAfter ?? 0) > 0)).toBe(true);
});

it('answers a repeated unknown token from memory', async () => {
  const { repo, gate } = gateWith(new Map());
  const hash = fake();
  await gate.check(hash, 'read', address());
  await gate.check(hash, 'read', address());
  expect(repo.lookups).toEqual([hash]);
});

it('keeps a live token cached through a flood of unknown ones from many addresses', async () => {
  const hash = fake();
  const { repo, gate } = gateWith(new Map([[hash, liveToken('t1')]]), 10);
  expect((await gate.check(hash, 'read', address())).token?.tokenId).toBe('t1');
  for (let i = 0; i < 50; i++) await gate.check(fake(), 'read', address());
  const before = repo.lookups.length;
  expect((await gate.check(hash, 'read', address())).token?.tokenId).toBe('t1');
  expect(repo.lookups.length).toBe(before);
});
