import type { ClientContext, Result } from 'ioredis';

/**
 * The gate's counters: token, address (or junk) and epoch, as its Lua scripts answer them, then the
 * address's count of unknown tokens and its key's TTL (the junk script answers the first five only).
 */
export type Counted = [number, number, number, number, string, number, number];
/** An admin counter: the count and its key's TTL. */
export type AdminCounted = [number, number];

/**
 * The gateway's Lua scripts, registered with `defineCommand` (access-gate.ts, admin-limit.ts),
 * typed on the client through ioredis's own declaration merging instead of casts.
 */
declare module 'ioredis' {
  interface RedisCommander<Context extends ClientContext = { type: 'default' }> {
    mmGate(
      tokenKey: string,
      ipKey: string,
      epochKey: string,
      unknownKey: string,
      window: number,
      member: string,
    ): Result<Counted, Context>;
    mmJunk(junkKey: string, unused: string, epochKey: string, window: number, member: string): Result<Counted, Context>;
    mmAdminCount(key: string, window: number): Result<AdminCounted, Context>;
  }
}
