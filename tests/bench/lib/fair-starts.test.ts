import { checkFairStarts, type MeetingTimes } from './fair-starts';

/** Meetings of `accounts` (one letter each) all submitted at 0, started in the given order 10 s apart. */
const startedInOrder = (accounts: string): MeetingTimes[] =>
  [...accounts].map((account, i) => ({ account, acceptedAt: 0, startedAt: i * 10_000 }));

describe('checkFairStarts', () => {
  it('fails submit order (FIFO) when one account submitted its four meetings first', () => {
    const v = checkFairStarts(startedInOrder('AAAABBBBCCCC'));
    expect(v.pass).toBe(false);
    expect(v.violations).toContain("C's first started 50.0 s after A's last started");
  });

  it('passes the accounts taken in turn', () => {
    expect(checkFairStarts(startedInOrder('AABCABCABCBC')).pass).toBe(true);
  });

  it('does not blame a meeting submitted after the other account had started its last one', () => {
    const meetings = [...startedInOrder('AA'), { account: 'B', acceptedAt: 15_000, startedAt: 20_000 }];
    expect(checkFairStarts(meetings).pass).toBe(true);
  });
});
