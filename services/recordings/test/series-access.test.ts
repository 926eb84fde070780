import { BUS, type RequestEntry } from '@mm/contract';
import type { Principal } from '@mm/http';
import { MeetingAccess } from '../src/services/access';
import { principal } from './support/harness';

/**
 * A meeting's reader that is not its owner is checked against the series service: the checks of
 * one turn of the event loop go in one seriesAccess request, each answered for its own account
 * and series, and a check on a later turn asks again.
 */
describe('series access checks', () => {
  const members = new Map([['ser_a', new Set(['acc_member'])]]);
  const sent: { accountId: string; seriesId: string }[][] = [];
  const call = async <P, R>(entry: RequestEntry<P, R>, payload: P): Promise<R> => {
    expect(entry.name).toBe(BUS.seriesAccess.name);
    const { pairs } = payload as { pairs: { accountId: string; seriesId: string }[] };
    sent.push(pairs);
    return {
      access: pairs.map(({ accountId, seriesId }) =>
        accountId === 'acc_owner' && seriesId === 'ser_a'
          ? 'owner'
          : members.get(seriesId)?.has(accountId)
            ? 'member'
            : null,
      ),
    } as R;
  };
  const access = new MeetingAccess(call);
  const as = (accountId: string, more: Partial<Principal> = {}) => principal(accountId, more);

  it('asks once per turn, and answers each check as its own', async () => {
    const answers = await Promise.all([
      access.seriesAccess(as('acc_owner'), 'ser_a'),
      access.seriesAccess(as('acc_member'), 'ser_a'),
      access.seriesAccess(as('acc_stranger'), 'ser_a'),
      access.seriesAccess(as('acc_member'), 'ser_b'),
      access.seriesAccess(as('acc_member'), 'ser_a'),
    ]);
    expect(answers).toEqual(['owner', 'member', null, null, 'member']);
    // One request, each pair once.
    expect(sent).toHaveLength(1);
    expect(sent[0]).toHaveLength(4);

    members.get('ser_a')!.delete('acc_member');
    expect(await access.seriesAccess(as('acc_member'), 'ser_a')).toBeNull();
    expect(sent).toHaveLength(2);
  });

  it('asks nothing while series are off for the account', async () => {
    const before = sent.length;
    const off = as('acc_owner', { features: { series: false, ask: true, videoUpload: true, memory: true } });
    expect(await access.seriesAccess(off, 'ser_a')).toBeNull();
    expect(sent).toHaveLength(before);
  });
});
