import { baseUrlProblem } from '../src/domain/base-url';
import { waitText } from '../src/domain/format';
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
  it('takes http and https URLs, with or without the API root', () => {
    expect(baseUrlProblem('http://127.0.0.1:8080')).toBeNull();
    expect(baseUrlProblem('https://mm.example.com/api/v1')).toBeNull();
  });

  it('says what is wrong with anything else', () => {
    expect(baseUrlProblem('not-a-url')).toBe('is not a URL: "not-a-url"');
    expect(baseUrlProblem('ftp://host')).toBe('is not an http or https URL: "ftp://host"');
  });
});

describe('Retry-After for a person', () => {
  it('writes seconds, then minutes, then hours and minutes', () => {
    expect(waitText(30)).toBe('30 s');
    expect(waitText(598)).toBe('10 min');
    expect(waitText(86_000)).toBe('23 h 54 min');
  });
});
