import { parseOffsetDateTime } from '../src/domain/recorded-at';

describe('parseOffsetDateTime', () => {
  it('reads a date-time with an offset, seconds and fractions optional', () => {
    expect(parseOffsetDateTime('2026-03-01T09:30:00Z')?.toISOString()).toBe('2026-03-01T09:30:00.000Z');
    expect(parseOffsetDateTime('2026-03-01T09:30+03:30')?.toISOString()).toBe('2026-03-01T06:00:00.000Z');
    expect(parseOffsetDateTime('2024-02-29T00:00:00.123456789-05:00')?.toISOString()).toBe('2024-02-29T05:00:00.123Z');
    expect(parseOffsetDateTime('2026-12-31t23:59:59z')?.toISOString()).toBe('2026-12-31T23:59:59.000Z');
  });

  it('refuses a day or time that does not exist instead of moving it', () => {
    for (const v of [
      '2026-02-30T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-00-10T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T23:60:00Z',
      '2026-01-01T23:59:60Z',
      '2026-01-01T10:00:00+24:00',
      '2026-01-01T10:00:00+05:60',
    ]) {
      expect([v, parseOffsetDateTime(v)]).toEqual([v, null]);
    }
  });

  it('refuses anything without an offset or not in the format', () => {
    for (const v of [
      '2026-03-01T09:30:00',
      '2026-03-01',
      'yesterday',
      '2026-03-01 09:30:00Z',
      '2026-3-1T09:30:00Z',
      ' 2026-03-01T09:30:00Z',
    ])
      expect([v, parseOffsetDateTime(v)]).toEqual([v, null]);
  });
});
