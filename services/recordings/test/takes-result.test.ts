import { takesResult } from '../src/domain/lifecycle';

describe('takesResult', () => {
  it('takes a result from the statuses it moves a meeting on from', () => {
    expect(takesResult({ status: 'QUEUED', autoRetryPending: false }, ['QUEUED', 'TRANSCRIBING', 'FAILED'])).toBe(true);
    expect(takesResult({ status: 'NAMING', autoRetryPending: false }, ['QUEUED', 'TRANSCRIBING', 'FAILED'])).toBe(
      false,
    );
  });

  it('takes a result at FAILED only while the service is retrying the meeting itself', () => {
    expect(takesResult({ status: 'FAILED', autoRetryPending: true }, ['QUEUED', 'FAILED'])).toBe(true);
    expect(takesResult({ status: 'FAILED', autoRetryPending: false }, ['QUEUED', 'FAILED'])).toBe(false);
    expect(takesResult({ status: 'FAILED', autoRetryPending: true }, ['GENERATING'])).toBe(false);
  });
});
