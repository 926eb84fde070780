import { readIdempotencyKey } from '../src';

/** As node reads a header: each byte of its UTF-8 one character (latin1). */
const asHeader = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

describe('an Idempotency-Key counted in characters (8 to 64 after trimming)', () => {
  it('takes ASCII keys inside the bounds, trimmed, and refuses them outside', () => {
    expect(readIdempotencyKey('  key-0001  ')).toBe('key-0001');
    expect(readIdempotencyKey('k'.repeat(64))).toBe('k'.repeat(64));
    expect(() => readIdempotencyKey('k'.repeat(7))).toThrow(/8 to 64 characters/);
    expect(() => readIdempotencyKey('k'.repeat(65))).toThrow(/8 to 64 characters/);
    expect(readIdempotencyKey(undefined)).toBeNull();
  });

  it('counts a UTF-8 header key by its characters, not its bytes, and keeps it as read', () => {
    const forty = asHeader('کلید'.repeat(10));
    expect(readIdempotencyKey(forty)).toBe(forty);
    expect(() => readIdempotencyKey(asHeader('کلید'))).toThrow(/8 to 64 characters/);
    expect(() => readIdempotencyKey(asHeader('کلید'.repeat(17)))).toThrow(/8 to 64 characters/);
  });

  it("counts a body key's emoji as one character each", () => {
    expect(readIdempotencyKey('😀'.repeat(64))).toBe('😀'.repeat(64));
    expect(() => readIdempotencyKey('😀'.repeat(65))).toThrow(/8 to 64 characters/);
    expect(readIdempotencyKey('café-clé-0001')).toBe('café-clé-0001');
  });
});
