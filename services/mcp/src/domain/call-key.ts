/**
 * The Idempotency-Key of a spending tool call, made by the server, never asked of the model: a
 * hash of who calls (the token), the tool, its arguments (keys sorted) and, for an upload, the
 * file's own digest. A call repeated after a lost reply is the same call and replays its first
 * result (charged once); a call that differs in any argument or in the file's bytes is new. Pure.
 */
import { createHash } from 'node:crypto';

export function callKey(tokenId: string, tool: string, args: Record<string, unknown>, fileDigest = ''): string {
  const canonical = JSON.stringify([tokenId, tool, sorted(args), fileDigest]);
  // 40 hex characters: inside the contract's 8 to 64.
  return createHash('sha256').update(canonical).digest('hex').slice(0, 40);
}

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value as object)
      .sort()
      .map((k) => [k, sorted((value as Record<string, unknown>)[k])]),
  );
}
