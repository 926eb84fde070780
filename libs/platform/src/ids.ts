import { randomBytes } from 'node:crypto';

/** A new opaque id with a readable prefix: `acc_`, `tok_`, `rec_`, `ser_`, ... (96 random bits). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url')}`;
}
