import { RemoteError } from '@mm/bus';
import { BUS, type RequestEntry } from '@mm/contract';
import { startStack, type Stack } from '../support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.stop();
});

/** The code the owner refuses a payload with (sent as is, even when it breaks the table). */
async function refusal(entry: RequestEntry<any, any>, payload: unknown): Promise<string> {
  try {
    await stack.request(entry, payload, { unchecked: true });
  } catch (err) {
    if (err instanceof RemoteError) return err.code;
    throw err;
  }
  throw new Error(`${entry.subject} answered instead of refusing`);
}

describe('seriesResolve (for the recordings service)', () => {
  it('answers the series for its owner and a member, NOT_FOUND for anyone else or a missing id', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['series:write']);
    const auth = { Authorization: `Bearer ${token.value}` };
    const { series } = (
      await stack.api
        .post('/api/v1/series')
        .set(auth)
        .send({ name: 'Planning', titleStyle: 'TOPIC', dateCalendar: 'GREGORIAN' })
    ).body;
    await stack.api
      .put(`/api/v1/series/${series.id}/keyterms`)
      .set(auth)
      .send({ keyterms: ['Roadmap'], inheritAccountKeyterms: false });
    const member = await stack.admin.account();
    const stranger = await stack.admin.account();
    await stack.admin.addSeriesMember(series.id, member.id);

    const expected = {
      id: series.id,
      name: 'Planning',
      titleStyle: 'TOPIC',
      dateCalendar: 'GREGORIAN',
      keyterms: ['Roadmap'],
      inheritAccountKeyterms: false,
    };
    expect(await stack.request(BUS.seriesResolve, { accountId: account.id, seriesId: series.id })).toEqual({
      ...expected,
      access: 'owner',
    });
    expect(await stack.request(BUS.seriesResolve, { accountId: member.id, seriesId: series.id })).toEqual({
      ...expected,
      access: 'member',
    });
    expect(await refusal(BUS.seriesResolve, { accountId: stranger.id, seriesId: series.id })).toBe('NOT_FOUND');
    expect(await refusal(BUS.seriesResolve, { accountId: account.id, seriesId: 'ser_missing' })).toBe('NOT_FOUND');
    expect(await refusal(BUS.seriesResolve, { accountId: account.id })).toBe('VALIDATION');
  });
});

describe('seriesStats (for the series service)', () => {
  it('answers 0 and null for every series asked that holds no finished meeting', async () => {
    expect(await stack.request(BUS.seriesStats, { seriesIds: ['ser_none', '__proto__'] })).toEqual({
      stats: {
        ser_none: { meetingCount: 0, lastRecordedAt: null },
        ['__proto__']: { meetingCount: 0, lastRecordedAt: null },
      },
    });
    expect(await stack.request(BUS.seriesStats, { seriesIds: [] })).toEqual({ stats: {} });
  });

  it('refuses a malformed question with VALIDATION', async () => {
    expect(await refusal(BUS.seriesStats, {})).toBe('VALIDATION');
    expect(await refusal(BUS.seriesStats, { seriesIds: 'ser_a' })).toBe('VALIDATION');
    expect(await refusal(BUS.seriesStats, { seriesIds: [''] })).toBe('VALIDATION');
    expect(await refusal(BUS.seriesStats, { seriesIds: Array.from({ length: 1001 }, (_, i) => `ser_${i}`) })).toBe(
      'VALIDATION',
    );
  });
});
