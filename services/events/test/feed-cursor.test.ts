import { CursorCodec, CursorError } from '../src/domain/feed-cursor';

const codec = new CursorCodec('test-secret-of-at-least-thirty-two-characters');

const refused = (cursor: string): boolean => {
  try {
    codec.decode(cursor);
    return false;
  } catch (err) {
    if (err instanceof CursorError) return true;
    throw err;
  }
};

describe('feed cursor codec', () => {
  it('round-trips a position, as an opaque url-safe string', () => {
    const c = codec.encode({ seq: 12345n, at: 1_700_000_000_000 });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(c).not.toContain('12345');
    expect(codec.decode(c)).toEqual({ seq: 12345n, at: 1_700_000_000_000 });
    expect(codec.decode(codec.encode({ seq: 0n, at: 0 }))).toEqual({ seq: 0n, at: 0 });
  });

  it('fits the contract parameter (at most 200 characters) for the largest positions', () => {
    const c = codec.encode({ seq: 9_223_372_036_854_775_807n, at: Number.MAX_SAFE_INTEGER });
    expect(c.length).toBeLessThanOrEqual(200);
    expect(codec.decode(c).seq).toBe(9_223_372_036_854_775_807n);
  });

  it('refuses a cursor with any character changed', () => {
    const c = codec.encode({ seq: 42n, at: 1_700_000_000_000 });
    for (let i = 0; i < c.length; i++) {
      const swapped = c.slice(0, i) + (c[i] === 'A' ? 'B' : 'A') + c.slice(i + 1);
      expect(refused(swapped)).toBe(true);
    }
  });

  it('refuses a cursor built by hand, truncated, extended or signed with another secret', () => {
    const c = codec.encode({ seq: 42n, at: 1_700_000_000_000 });
    const text = Buffer.from(c, 'base64url').toString();
    const forged = Buffer.from(text.replace('.42.', '.41.')).toString('base64url');
    expect(refused(forged)).toBe(true);
    expect(refused(Buffer.from('v1.42.1700000000000').toString('base64url'))).toBe(true);
    expect(refused(c.slice(0, -1))).toBe(true);
    expect(refused(c + 'A')).toBe(true);
    expect(refused(new CursorCodec('another-secret-of-at-least-thirty-two-chars').encode({ seq: 42n, at: 1 }))).toBe(
      true,
    );
    for (const bad of ['', 'latest!', 'evt_123', '12', '====', 'x'.repeat(201)]) expect(refused(bad)).toBe(true);
  });

  it('refuses positions that cannot be encoded', () => {
    expect(() => codec.encode({ seq: -1n, at: 0 })).toThrow();
    expect(() => codec.encode({ seq: 1n, at: 1.5 })).toThrow();
  });
});
