import { createHmac, createSecretKey, randomBytes, type KeyObject } from 'node:crypto';
import { crc32 } from 'node:zlib';

/**
 * Token values: `svc_` + 43 base64url characters (32 random bytes, 256 bits) + 6 base32
 * characters of a CRC-32 of the body. The checksum lets a secret scanner tell a real token from
 * look-alike text, and lets the gateway refuse a mistyped token without touching the database.
 */
export const TOKEN_PREFIX = 'svc_';
const BODY_LENGTH = 43;
const CHECK_LENGTH = 6;
const TOKEN_PATTERN = /^svc_[A-Za-z0-9_-]{43}[a-z2-7]{6}$/;

function checksum(body: string): string {
  return (crc32(body) >>> 0)
    .toString(32)
    .padStart(CHECK_LENGTH, '0')
    .replace(/[0189]/g, (c) => ({ '0': 'a', '1': 'b', '8': 'c', '9': 'd' })[c]!)
    .slice(-CHECK_LENGTH);
}

export function generateTokenValue(): string {
  const body = randomBytes(32).toString('base64url');
  return `${TOKEN_PREFIX}${body}${checksum(body)}`;
}

/** True when the value has the token shape and its checksum is right. */
export function isWellFormedToken(value: string): boolean {
  if (!TOKEN_PATTERN.test(value)) return false;
  const body = value.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + BODY_LENGTH);
  return value.slice(TOKEN_PREFIX.length + BODY_LENGTH) === checksum(body);
}

/** The token key as a KeyObject, made once per key (every request hashes its bearer). */
const keyObjects = new Map<string, KeyObject>();

function keyObjectOf(key: string): KeyObject {
  let k = keyObjects.get(key);
  if (!k) {
    if (keyObjects.size >= 16) keyObjects.clear();
    k = createSecretKey(Buffer.from(key, 'utf8'));
    keyObjects.set(key, k);
  }
  return k;
}

/** The keyed hash stored in place of the token (HMAC-SHA256 with the server's token key). */
export function hashToken(key: string, value: string): string {
  return createHmac('sha256', keyObjectOf(key)).update(value).digest('base64url');
}
