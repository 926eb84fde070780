import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { migrateSchema, openDatabase } from '@mm/db';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import { AskRepository } from '../src/db/ask.repository';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
let db: Kysely<Database>;
let repo: AskRepository;
beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'ask', migrations);
  ({ db } = openDatabase<Database>({ url: DATABASE_URL, schema: 'ask', poolSize: 2 }));
  repo = new AskRepository(db);
});
afterAll(async () => {
  await db.destroy();
});

const claim = (id: string, key: string, attempt: string) =>
  repo.claim({
    id,
    attempt,
    accountId: 'acc_repo',
    tokenId: 'tok_1',
    target: { kind: 'recording', id: 'rec_1' },
    key,
    question: 'q?',
    minutes: 1,
  });

describe('Ask claims', () => {
  it('lets one request claim a key; a taken-over claim can be neither released nor answered by the attempt it replaced', async () => {
    const id = `ask_${randomBytes(6).toString('hex')}`;
    const key = `key-${randomBytes(6).toString('hex')}`;
    expect(await claim(id, key, 'att_a')).toBe(true);
    expect(await claim(`${id}_2`, key, 'att_x')).toBe(false);
    // Not stale yet: no takeover.
    expect(await repo.takeOver(id, 'att_b', 60_000)).toBe(false);
    expect(await repo.takeOver(id, 'att_b', 0)).toBe(true);
    await repo.release(id, 'att_a');
    expect((await repo.get(id))?.attempt).toBe('att_b');
    expect(await repo.answered(id, 'att_a', { answer: 'old' })).toBe(false);
    expect(await repo.answered(id, 'att_b', { answer: 'new' })).toBe(true);
    expect(await repo.byKey('acc_repo', { kind: 'recording', id: 'rec_1' }, key)).toMatchObject({
      id,
      state: 'answered',
      answer: { answer: 'new' },
    });
    // An answered claim is never released or taken over.
    await repo.release(id, 'att_b');
    expect(await repo.takeOver(id, 'att_c', 0)).toBe(false);
    expect(await repo.get(id)).toMatchObject({ state: 'answered' });
  });
});
