import { keptAnswerHolds, keptUntil } from '../src/domain/kept-answer';

const asked = Date.parse('2026-03-01T10:00:00Z');

describe('keptUntil', () => {
  it("takes the service's mark when it comes before the gateway's own limit", () => {
    expect(keptUntil(String(asked + 4000), asked, 10_000)).toBe(asked + 4000);
  });
  it('never keeps longer than the limit after the version was read, whatever the mark says', () => {
    expect(keptUntil(String(asked + 3_600_000), asked, 10_000)).toBe(asked + 10_000);
  });
  it('keeps nothing without a mark, with a mark that is not a time, or one already past', () => {
    expect(keptUntil(undefined, asked, 10_000)).toBeNull();
    for (const bad of ['', 'soon', '-5', '1e20', '12.5', ' 1', String(asked), String(asked - 1)]) expect(keptUntil(bad, asked, 10_000)).toBeNull();
  });
  it('keeps for the share of the limit it is given, never less than half of it nor more than all', () => {
    expect(keptUntil(String(asked + 60_000), asked, 10_000, 0.75)).toBe(asked + 7500);
    expect(keptUntil(String(asked + 60_000), asked, 10_000, 0.1)).toBe(asked + 5000);
    expect(keptUntil(String(asked + 60_000), asked, 10_000, 3)).toBe(asked + 10_000);
    expect(keptUntil(String(asked + 2000), asked, 10_000, 0.5)).toBe(asked + 2000);
  });
  it('keeps nothing when the limit is 0 (keeping turned off)', () => {
    expect(keptUntil(String(asked + 4000), asked, 0)).toBeNull();
  });
});

describe('keptAnswerHolds', () => {
  const kept = { walletVersion: 'a1/b1', until: asked + 5000 };
  it('holds while the version read now is the one it was kept under and its time has not passed', () => {
    expect(keptAnswerHolds(kept, 'a1/b1', asked + 4999)).toBe(true);
  });
  it('does not hold once the time has passed', () => {
    expect(keptAnswerHolds(kept, 'a1/b1', asked + 5000)).toBe(false);
  });
  it("does not hold after any change of the account's or every account's version, or without a version", () => {
    expect(keptAnswerHolds(kept, 'a2/b1', asked)).toBe(false);
    expect(keptAnswerHolds(kept, 'a1/b2', asked)).toBe(false);
    expect(keptAnswerHolds(kept, null, asked)).toBe(false);
  });
});
