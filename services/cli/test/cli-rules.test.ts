import { isAdminUrl, sameApiRoot } from '../src/domain/base-url';
import { sizeText, waitText } from '../src/domain/format';
import { NAMING_WAIT_LIMIT_MS, stopsAtNaming } from '../src/domain/naming-wait';

describe('a wait at NAMING', () => {
  const now = Date.parse('2026-11-25T12:00:00Z');
  const inMs = (ms: number) => new Date(now + ms).toISOString();

  it('stops when the service waits for a person with no end (FORCE_ON, deadline null)', () => {
    expect(stopsAtNaming(null, now)).toBe(true);
  });

  it('stops when the deadline is hours away (FORCE_ON)', () => {
    expect(stopsAtNaming(inMs(24 * 3600_000), now)).toBe(true);
  });

  it('waits on when the service goes on by itself soon (AUTO) or the deadline has passed', () => {
    expect(stopsAtNaming(inMs(120_000), now)).toBe(false);
    expect(stopsAtNaming(inMs(NAMING_WAIT_LIMIT_MS), now)).toBe(false);
    expect(stopsAtNaming(inMs(-5_000), now)).toBe(false);
  });
});

describe('base URL', () => {
  it('knows the admin API is not the API, and which URLs name the same API root', () => {
    expect(isAdminUrl('http://127.0.0.1:8080/admin/v1')).toBe(true);
    expect(isAdminUrl('http://127.0.0.1:8080/api/v1')).toBe(false);
    expect(sameApiRoot('http://h:8080', 'http://h:8080/api/v1/')).toBe(true);
    expect(sameApiRoot('http://h:8080', 'http://other:8080')).toBe(false);
  });
});

describe('upload sizes', () => {
  it('shows bytes below a kilobyte, so a small share is not rounded up to a whole kB', () => {
    expect(sizeText(212)).toBe('212 B');
    expect(sizeText(1530)).toBe('1.5 kB');
    expect(sizeText(84_300)).toBe('84 kB');
    expect(sizeText(12_345_678)).toBe('12 MB');
  });
});

describe('Retry-After for a person', () => {
  it('writes seconds, then minutes, then hours and minutes', () => {
    expect(waitText(30)).toBe('30 s');
    expect(waitText(598)).toBe('10 min');
    expect(waitText(86_000)).toBe('23 h 54 min');
  });
});
