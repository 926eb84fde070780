import type { ClientContext, Result } from 'ioredis';

/**
 * The gate's counters: token, address (or junk) and epoch, as its Lua scripts answer them, and the
 * token's wallet version when it was asked for (null otherwise).
 */
export type Counted = [number, number, number, number, string, string | null, number, number];
/** An admin counter: the count and its key's TTL. */
export type AdminCounted = [number, number];

/**
 * The gateway's Lua scripts, registered with `defineCommand` (access-gate.ts, admin-limit.ts),
 * typed on the client through ioredis's own declaration merging instead of casts.
 */
declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext = { type: 'default' }> {
    mmGate(tokenKey: string, ipKey: string, epochKey: string, walletKey: string, walletsKey: string, junkKey: string, window: number, member: string, readWallet: '0' | '1', walletTtl: number): Result<Counted, Context>;
    mmJunk(junkKey: string, unused: string, epochKey: string, window: number, member: string): Result<Counted, Context>;
    mmAdminCount(key: string, window: number): Result<AdminCounted, Context>;
  }
}
