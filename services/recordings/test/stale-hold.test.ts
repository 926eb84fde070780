import { meetingOfHold, staleHoldAction } from '../src/domain/stale-hold';

const live = (holdRef: string) => ({ holdRef, deletedAt: null, charged: false });

describe('staleHoldAction', () => {
  it('releases a hold whose meeting was never created', () => {
    expect(staleHoldAction('rec_1', null)).toBe('release');
  });
  it("keeps the hold the meeting will capture or release (its holdRef), whatever the meeting's age", () => {
    expect(staleHoldAction('rec_1', live('rec_1'))).toBe('keep');
    expect(staleHoldAction('rec_1:retry:job_2', live('rec_1:retry:job_2'))).toBe('keep');
  });
  it('releases a hold the meeting does not name (held again, never attached)', () => {
    expect(staleHoldAction('rec_1:retry:job_2', live('rec_1'))).toBe('release');
    expect(staleHoldAction('rec_1', live('rec_1:restore:hold_3'))).toBe('release');
  });
  it('releases the hold of a meeting deleted before its transcript (the delete should have), never a charged one', () => {
    expect(staleHoldAction('rec_1', { holdRef: 'rec_1', deletedAt: new Date(), charged: false })).toBe('release');
    expect(staleHoldAction('rec_1', { holdRef: 'rec_1', deletedAt: new Date(), charged: true })).toBe('keep');
  });
  it('reads the meeting id from any hold reference', () => {
    expect(['rec_1', 'rec_1:retry:job_2', 'rec_1:restore:hold_3'].map(meetingOfHold)).toEqual([
      'rec_1',
      'rec_1',
      'rec_1',
    ]);
  });
});
