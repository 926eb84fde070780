import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { startStack, type Stack } from '../support/stack';
import { toneWav } from '../support/media';
import { BUS } from '@mm/contract';

/**
 * Orphan holds (the service stopped between a hold and the meeting's commit) are released by the
 * recordings service's reconciler; a meeting's own hold is kept. Holds count as stale after 1 s here.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ STALE_HOLD_SECONDS: '1', HOLD_RECONCILE_SECONDS: '1' });
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

async function closed(accountId: string): Promise<string[]> {
  const db = new Client({ connectionString: stack.env.DATABASE_URL });
  await db.connect();
  try {
    return (
      await db.query("select hold_reference from account.ledger_entry where account_id = $1 and kind = 'release'", [
        accountId,
      ])
    ).rows
      .map((r) => r.hold_reference as string)
      .sort();
  } finally {
    await db.end();
  }
}

const hold = (accountId: string, reference: string) =>
  stack.request(BUS.walletHold, {
    accountId,
    reference,
    minutes: 2,
    tokenId: null,
    dailyMinuteCap: null,
    showBalance: false,
    force: true,
  });

describe('the hold reconciler', () => {
  it("releases holds no meeting names, and keeps a meeting's own hold", async () => {
    const account = await stack.admin.account({ balanceMinutes: 30 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'account:read']);
    const sent = await stack.api
      .post('/api/v1/recordings')
      .set('Authorization', `Bearer ${token.value}`)
      .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' });
    expect(sent.status).toBe(202);
    const id = sent.body.recording.id as string;
    await hold(account.id, 'rec_never_created');
    await hold(account.id, `${id}:retry:job_lost`);

    const until = Date.now() + 15_000;
    let released: string[] = [];
    while (released.length < 2 && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 250));
      released = await closed(account.id);
    }
    expect(released).toEqual([`hold:${id}:retry:job_lost`, 'hold:rec_never_created'].sort());
    // Another pass later still keeps the meeting's own hold (no pipeline runs here: it stays QUEUED).
    await new Promise((r) => setTimeout(r, 2500));
    expect(await closed(account.id)).toEqual(released);
    const who = await stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token.value}`);
    expect(who.body.wallet.balanceMinutes).toBe(30);
  }, 30_000);
});
