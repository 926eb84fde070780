import { isRepeatable, retryDelayMs, DEFAULT_RETRY } from '../src/domain/retry-policy';
import { isSettled, pollDelayMs } from '../src/domain/poll-schedule';

describe("retry policy (the contract's retry guidance)", () => {
  it('repeats a network error or a 5xx only for a GET or a keyed request, with growing waits', () => {
    expect(retryDelayMs({ attempt: 1, repeatable: true })).toBe(DEFAULT_RETRY.baseDelayMs);
    expect(retryDelayMs({ attempt: 3, repeatable: true, status: 502, code: 'GENERATE_FAILED' })).toBe(
      DEFAULT_RETRY.baseDelayMs * 4,
    );
    expect(retryDelayMs({ attempt: 1, repeatable: false })).toBeNull();
    expect(retryDelayMs({ attempt: 1, repeatable: false, status: 500, code: 'INTERNAL_ERROR' })).toBeNull();
  });

  it('waits Retry-After on 429 and UPLOAD_IN_PROGRESS, and gives up on a 429 without it', () => {
    expect(
      retryDelayMs({ attempt: 1, repeatable: false, status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 7 }),
    ).toBe(7000);
    expect(
      retryDelayMs({ attempt: 1, repeatable: true, status: 503, code: 'UPLOAD_IN_PROGRESS', retryAfterSeconds: 2 }),
    ).toBe(2000);
    expect(retryDelayMs({ attempt: 1, repeatable: true, status: 429, code: 'DAILY_LIMIT_REACHED' })).toBeNull();
    expect(
      retryDelayMs({ attempt: 1, repeatable: true, status: 429, code: 'RATE_LIMITED', retryAfterSeconds: 3600 }),
    ).toBeNull();
  });

  it('never repeats a do-not-repeat or change-the-request code, and stops after the last attempt', () => {
    for (const [status, code] of [
      [401, 'TOKEN_INVALID'],
      [403, 'TOKEN_SCOPE'],
      [404, 'NOT_FOUND'],
      [402, 'INSUFFICIENT_MINUTES'],
      [400, 'VALIDATION'],
      [409, 'NOT_READY'],
    ] as const) {
      expect(retryDelayMs({ attempt: 1, repeatable: true, status, code })).toBeNull();
    }
    expect(retryDelayMs({ attempt: DEFAULT_RETRY.maxAttempts, repeatable: true })).toBeNull();
  });

  it('counts GET, PUT, DELETE and any request with an Idempotency-Key as repeatable', () => {
    expect(isRepeatable('GET', new Headers())).toBe(true);
    expect(isRepeatable('POST', new Headers())).toBe(false);
    expect(isRepeatable('POST', new Headers({ 'Idempotency-Key': 'k'.repeat(16) }))).toBe(true);
  });
});

describe('status poll schedule', () => {
  it('starts quick and doubles to once a minute; a Retry-After lengthens a wait', () => {
    expect([1, 2, 3, 4, 5, 9].map((n) => pollDelayMs(n))).toEqual([5000, 10000, 20000, 40000, 60000, 60000]);
    expect(pollDelayMs(1, undefined, 30)).toBe(30000);
  });

  it('stops at READY and FAILED, and at NAMING unless waiting through naming', () => {
    expect(isSettled('READY', false)).toBe(true);
    expect(isSettled('NAMING', false)).toBe(true);
    expect(isSettled('NAMING', true)).toBe(false);
    expect(isSettled('GENERATING', false)).toBe(false);
  });
});
