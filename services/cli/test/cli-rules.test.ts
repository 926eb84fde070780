import { otherSurfaceOf } from '@mm/sdk';
import { sameApiRoot } from '../src/domain/base-url';
import { eventDetail, sizeText, waitText } from '../src/domain/format';
import { namingStopSentence } from '@mm/contract';
import { namingStop } from '../src/domain/naming-stop';

describe('a wait at NAMING', () => {
  it('names the link, the deadline and the two ways on', () => {
    const stop = namingStop('r1', { url: 'https://app/n/r1', deadline: '2026-11-25T12:05:00Z' });
    expect(stop.next).toEqual(['mm skip-naming r1', 'mm wait r1']);
    expect(stop.hint).toMatch(
      /until 2026-11-25T12:05:00Z .* open https:\/\/app\/n\/r1 .*mm skip-naming r1 && mm wait r1/,
    );
    expect(stop.hint).toMatch(/--skip-naming/);
    // The MCP server's sentence word for word (libs/contract), with the command line's way to skip.
    expect(stop.hint).toBe(
      namingStopSentence(
        { url: 'https://app/n/r1', deadline: '2026-11-25T12:05:00Z' },
        'mm skip-naming r1 && mm wait r1 (--skip-naming never stops here)',
      ),
    );
  });

  it('says when the service waits with no end (FORCE_ON, deadline null)', () => {
    expect(namingStop('r1', { url: 'u', deadline: null }).hint).toMatch(/with no end/);
  });
});

describe('base URL', () => {
  it('knows the admin API is not the API, and which URLs name the same API root', () => {
    expect(otherSurfaceOf('http://127.0.0.1:8080/admin/v1')).toBe('the admin API');
    expect(otherSurfaceOf('http://127.0.0.1:8080/app')).toBe('the app');
    expect(otherSurfaceOf('http://127.0.0.1:8080/app/recordings/rec_1')).toBe('the app');
    expect(otherSurfaceOf('http://127.0.0.1:8080/api/v1')).toBeNull();
    expect(otherSurfaceOf('http://127.0.0.1:8080/meetings/app')).toBeNull();
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

describe("an event's line (mm events without --json)", () => {
  it("adds an update's change, a failure's code and whether a retry may help, and nothing to the rest", () => {
    expect(eventDetail({ status: 'READY', change: 'renamed' })).toBe(' renamed');
    expect(eventDetail({ status: 'FAILED', error: { code: 'NO_SPEECH', retryable: false } })).toBe(' NO_SPEECH');
    expect(eventDetail({ status: 'FAILED', error: { code: 'TRANSCRIBE_FAILED', retryable: true } })).toBe(
      ' TRANSCRIBE_FAILED (retryable)',
    );
    expect(eventDetail({ status: 'READY' })).toBe('');
    expect(eventDetail({ status: 'FAILED', error: null })).toBe('');
  });
});
