/**
 * A person's name as it is kept: trimmed, and null when nothing is left (the contract: "null when
 * no name was set", so a blank name is no name). `undefined` (not sent) stays undefined.
 */
export function keptDisplayName(name: string | null | undefined): string | null | undefined {
  if (name === undefined) return undefined;
  return name?.trim() || null;
}
