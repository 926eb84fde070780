import { decodeCursor, encodeCursor } from '../src/domain/cursor';

describe('list cursors', () => {
  it('reads back what it wrote', () => {
    const at = new Date('2026-03-01T09:30:00.123Z');
    expect(decodeCursor(encodeCursor({ createdAt: at, id: 'rec_abc' }))).toEqual({ createdAt: at, id: 'rec_abc' });
  });

  it('takes a position past the year 9999 as the latest one (a timestamp of five-digit years is no date Postgres reads)', () => {
    const latest = new Date('9999-12-31T23:59:59.999Z');
    expect(decodeCursor('999999999999999.zzz')).toEqual({ createdAt: latest, id: 'zzz' });
    expect(decodeCursor('253402300800000.zzz')?.createdAt).toEqual(latest);
    expect(decodeCursor('253402300799998.zzz')?.createdAt.getTime()).toBe(253402300799998);
  });

  it('refuses what is not of the format', () => {
    for (const v of ['', '1', '.abc', '1.', '1234567890123456.a', `1.${'a'.repeat(49)}`, '1.a b', '-1.a'])
      expect([v, decodeCursor(v)]).toEqual([v, null]);
  });
});
