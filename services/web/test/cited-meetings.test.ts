import { citedMeetingNames } from '../src/domain/cited-meetings';
import { speechOf } from '../src/i18n/messages';

describe("the meetings a series' Ask cites", () => {
  const date = speechOf('en').date;

  it('add the time recorded only where two meetings share a display title', () => {
    const names = citedMeetingNames(
      [
        { id: 'r1', displayTitle: 'Weekly sync 2026-11-20', recordedAt: '2026-11-20T09:00:00Z' },
        { id: 'r2', displayTitle: 'Weekly sync 2026-11-20', recordedAt: '2026-11-20T15:30:00Z' },
        { id: 'r3', displayTitle: 'Weekly sync 2026-11-27', recordedAt: '2026-11-27T09:00:00Z' },
      ],
      date,
    );
    expect([...names.entries()]).toEqual([
      ['r1', 'Weekly sync 2026-11-20 · 20 Nov 2026, 09:00 UTC'],
      ['r2', 'Weekly sync 2026-11-20 · 20 Nov 2026, 15:30 UTC'],
      ['r3', 'Weekly sync 2026-11-27'],
    ]);
  });
});
