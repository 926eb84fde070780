import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { ADMIN_KEY, startStack, type Stack } from '../support/stack';
import { toneWav } from '../support/media';

/**
 * Money around delete and restore, with no pipeline running (meetings stay QUEUED): a meeting
 * deleted before its transcript lets its hold go; restored, it is held again, and that forced hold
 * is not a new meeting for the service's daily limit.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ DAILY_MEETING_LIMIT: '2' });
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
const bearer = (v: string) => ({ Authorization: `Bearer ${v}` });

async function ledger(accountId: string): Promise<{ kind: string; reference: string }[]> {
  const db = new Client({ connectionString: stack.env.DATABASE_URL });
  await db.connect();
  try {
    return (
      await db.query(
        "select kind, reference from account.ledger_entry where account_id = $1 and kind <> 'credit' order by id",
        [accountId],
      )
    ).rows;
  } finally {
    await db.end();
  }
}

describe('delete and restore before the transcript', () => {
  it('releases the hold on delete, holds again on restore, and the new hold does not count as a meeting', async () => {
    const account = await stack.admin.account({ balanceMinutes: 20 });
    const token = await stack.admin.token(account.id, ['recordings:write', 'recordings:read', 'account:read']);
    const send = () =>
      stack.api
        .post('/api/v1/recordings')
        .set(bearer(token.value))
        .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' });
    const first = await send();
    expect(first.status).toBe(202);
    const id = first.body.recording.id as string;

    expect((await stack.api.delete(`/admin/v1/recordings/${id}`).set(admin)).status).toBe(200);
    expect((await ledger(account.id)).map((e) => e.kind)).toEqual(['hold', 'release']);

    const restored = await stack.api.post(`/admin/v1/recordings/${id}/restore`).set(admin);
    expect(restored.status).toBe(200);
    const entries = await ledger(account.id);
    expect(entries.map((e) => e.kind)).toEqual(['hold', 'release', 'hold']);
    expect(entries[2].reference).toMatch(new RegExp(`^hold:${id}:restore:`));
    // Restoring again (already restored) holds nothing more.
    expect((await stack.api.post(`/admin/v1/recordings/${id}/restore`).set(admin)).status).toBe(200);
    expect(await ledger(account.id)).toHaveLength(3);

    // The limit is 2 meetings a day: the restored meeting's second hold is not a second meeting.
    expect((await send()).status).toBe(202);
    const third = await send();
    expect([third.status, third.body.error.code]).toEqual([429, 'DAILY_LIMIT_REACHED']);
  });
});
