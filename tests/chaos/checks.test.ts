import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from 'pg';
import { ensureDatabase } from '@mm/db';
import { migrateAll } from '../support/migrate';
import { dropDatabase } from '../support/stack';
import { FaultChecks } from './checks';

/**
 * The chaos run fails on a broken promise only if its checks see one: given a database that
 * holds a feed out of order or money that does not add up, the checks must name it (and say
 * nothing of a database where everything holds). The database is real (every service's schema,
 * migrated); what the gateway answers (a balance, a feed) is served by a small HTTP server here.
 */
const databaseUrl = (() => {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test');
  url.pathname = `${url.pathname}_chaos_checks_${process.pid}`;
  return url.toString();
})();

let db: Client;
let gateway: Server;
let gatewayUrl: string;
/** What the stand-in gateway answers: the account's balance and its feed, per test. */
let balance = 0;
let feed: { id: string; type: string; recordingId: string }[] = [];

beforeAll(async () => {
  await ensureDatabase(databaseUrl);
  await migrateAll(databaseUrl);
  db = new Client({ connectionString: databaseUrl });
  await db.connect();
  gateway = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/api/v1/account') return void res.end(JSON.stringify({ wallet: { balanceMinutes: balance } }));
    if (req.url?.startsWith('/api/v1/events')) return void res.end(JSON.stringify({ events: feed, nextCursor: '' }));
    res.statusCode = 404;
    res.end('{}');
  });
  await new Promise<void>((r) => gateway.listen(0, '127.0.0.1', r));
  gatewayUrl = `http://127.0.0.1:${(gateway.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  await db?.end();
  await new Promise((r) => gateway?.close(r));
  await dropDatabase(databaseUrl);
});

let n = 0;

/**
 * One READY meeting of 2 minutes, as a clean run leaves it: credit 10, hold then capture of its
 * price, events created then ready stamped 1 and 2. `spoil` breaks one thing.
 */
async function readyMeeting(
  spoil: { capture?: number; seqs?: [number, number]; feed?: string[]; balance?: number } = {},
) {
  await db.query('truncate account.ledger_entry, recordings.recording, events.event');
  const id = `rec_${++n}`;
  const accountId = `acc_${n}`;
  await db.query('insert into account.wallet (account_id) values ($1)', [accountId]);
  await db.query(
    `insert into recordings.recording (id, account_id, source, status, kind, output_language, naming, keyterms, recorded_at, created_at, minutes, audio_key, hold_ref, event_seq)
     values ($1, $2, 'api', 'READY', 'MEETING', 'MATCH', 'default', '{}', now(), now(), 2, 'audio/x', $1, 2)`,
    [id, accountId],
  );
  await db.query(
    `insert into account.ledger_entry (account_id, kind, minutes, reference, hold_reference) values
     ($1, 'credit', 10, 'credit:1', null), ($1, 'hold', 2, $2, null), ($1, 'capture', $3, $4, $2)`,
    [accountId, id, spoil.capture ?? 2, `capture:${id}`],
  );
  const [a, b] = spoil.seqs ?? [1, 2];
  await db.query(
    `insert into events.event (id, account_id, recording_id, type, occurred_at, data, meeting_seq) values
     ($1, $3, $4, 'recording.created', now(), '{}', $5), ($2, $3, $4, 'recording.ready', now(), '{}', $6)`,
    [`evt_${n}_1`, `evt_${n}_2`, accountId, id, a, b],
  );
  feed = (spoil.feed ?? ['recording.created', 'recording.ready']).map((type, i) => ({
    id: `evt_${n}_${i + 1}`,
    type,
    recordingId: id,
  }));
  balance = spoil.balance ?? 10 - (spoil.capture ?? 2);
  const counts = { seconds: 1, faults: [], submits: 1, refused: 0, namingSkips: 0, retries: 0, asks: 0, askRepeats: 0 };
  const report = await new FaultChecks(databaseUrl, gatewayUrl).run(
    [{ id, client: { accountId, token: 't' }, price: 2 }],
    [],
    counts,
  );
  return report.violations;
}

it('finds nothing wrong when everything holds', async () => {
  expect(await readyMeeting()).toEqual([]);
});

it('names a meeting whose events were stored out of their stamped order', async () => {
  const violations = await readyMeeting({ seqs: [2, 1] });
  expect(violations).toEqual([expect.stringMatching(/^feed order: rec_\d+ stored its events as \[2, 1\]/)]);
});

it('names a feed that reads a meeting before it was created', async () => {
  const violations = await readyMeeting({ feed: ['recording.ready', 'recording.created'] });
  expect(violations).toEqual([expect.stringMatching(/^feed order: rec_\d+ reads recording.ready, recording.created/)]);
});

it('names a meeting charged other than its price', async () => {
  const violations = await readyMeeting({ capture: 3 });
  expect(violations).toContainEqual(expect.stringMatching(/^money: rec_\d+ was charged 3 minutes, its price is 2/));
});

it('names a balance its ledger does not explain', async () => {
  const violations = await readyMeeting({ balance: 9 });
  expect(violations).toEqual([
    expect.stringMatching(/^money: account acc_\d+ reads a balance of 9, its ledger says 8/),
  ]);
});
