import { createHmac, createSecretKey, timingSafeEqual, type KeyObject } from 'node:crypto';

/** A position in the feed: after event `seq`, aged from `at` (epoch ms). */
export interface CursorPosition {
  seq: bigint;
  at: number;
}

export class CursorError extends Error {}

const VERSION = 'v1';
const SIG_BYTES = 16;

/**
 * Opaque, signed feed cursors: base64url of `v1.<seq>.<at>.<sig>`, where sig is the first 16
 * bytes of HMAC-SHA256 over `v1.<seq>.<at>` (base64url). A client can neither build nor alter one.
 */
export class CursorCodec {
  private readonly key: KeyObject;
  constructor(secret: string) {
    // A key of its own, derived from the shared secret, so a cursor signature is good for nothing else.
    // A KeyObject made once: node makes one from a Buffer key on every createHmac (~25 µs a
    // cursor against ~3 µs; docs/decisions.md, "Speed of every route, round 3").
    this.key = createSecretKey(createHmac('sha256', secret).update('events-feed-cursor').digest());
  }

  private sign(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, SIG_BYTES);
  }

  encode(p: CursorPosition): string {
    if (p.seq < 0n || !Number.isSafeInteger(p.at) || p.at < 0) throw new Error('invalid cursor position');
    const body = `${VERSION}.${p.seq}.${p.at}`;
    return Buffer.from(`${body}.${this.sign(body).toString('base64url')}`, 'utf8').toString('base64url');
  }

  /** The position of a cursor as issued; CursorError for anything else. */
  decode(cursor: string): CursorPosition {
    if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw new CursorError('after is not a cursor this service issued');
    const text = Buffer.from(cursor, 'base64url').toString('utf8');
    // Round trip: a cursor with extra or changed padding bits is not the one issued.
    if (Buffer.from(text, 'utf8').toString('base64url') !== cursor)
      throw new CursorError('after is not a cursor this service issued');
    const m = /^(v1)\.(0|[1-9]\d{0,18})\.(0|[1-9]\d{0,15})\.([A-Za-z0-9_-]+)$/.exec(text);
    if (!m) throw new CursorError('after is not a cursor this service issued');
    const body = `${m[1]}.${m[2]}.${m[3]}`;
    const given = Buffer.from(m[4], 'base64url');
    const expected = this.sign(body);
    if (given.length !== expected.length || !timingSafeEqual(given, expected) || given.toString('base64url') !== m[4]) {
      throw new CursorError('after is not a cursor this service issued');
    }
    const at = Number(m[3]);
    if (!Number.isSafeInteger(at)) throw new CursorError('after is not a cursor this service issued');
    return { seq: BigInt(m[2]), at };
  }
}
