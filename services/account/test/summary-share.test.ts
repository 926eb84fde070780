import { admitShare } from '../src/domain/summary-share';

const now = new Date('2026-11-26T12:00:00Z');
const ago = (minutes: number, recipients = 1) => ({ sentAt: new Date(now.getTime() - minutes * 60_000), recipients });
const limits = { sendsPerHour: 3, recipientsPerDay: 10 };

describe('the limit on summaries emailed from the app', () => {
  it('admits a send while the hour and the day have room', () => {
    expect(admitShare([ago(5), ago(50)], 1, now, limits)).toEqual({ ok: true });
  });

  it('refuses the fourth send of an hour until the oldest of the hour leaves it', () => {
    expect(admitShare([ago(10), ago(20), ago(40), ago(90)], 1, now, limits)).toEqual({
      ok: false,
      retryAfterSeconds: 20 * 60,
    });
  });

  it('refuses a send whose addresses would pass the day, until enough of the day leaves it', () => {
    // 9 addresses over the day; 3 more fit once the oldest send (4 addresses, 23 hours ago) leaves it.
    expect(admitShare([ago(23 * 60, 4), ago(22 * 60, 3), ago(120, 2)], 3, now, limits)).toEqual({
      ok: false,
      retryAfterSeconds: 60 * 60,
    });
  });

  it('forgets sends older than a day', () => {
    expect(admitShare([ago(25 * 60, 10)], 10, now, limits)).toEqual({ ok: true });
  });

  it('never admits more addresses at once than a day allows', () => {
    expect(admitShare([], 11, now, limits)).toEqual({ ok: false, retryAfterSeconds: 86_400 });
  });
});
