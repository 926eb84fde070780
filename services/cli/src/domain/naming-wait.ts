/**
 * Whether `submit --wait` / `wait` stops at NAMING. Pure.
 *
 * Under AUTO the service goes on by itself a short while later (naming.deadline minutes away):
 * waiting on is what the caller wants. Under FORCE_ON it waits for a person, hours or with no end
 * (deadline null): an agent must not hang there, so the wait stops and says how to go on.
 */
export const NAMING_WAIT_LIMIT_MS = 15 * 60_000;

export function stopsAtNaming(deadline: string | null | undefined, nowMs: number): boolean {
  if (!deadline) return true;
  return Date.parse(deadline) - nowMs > NAMING_WAIT_LIMIT_MS;
}
