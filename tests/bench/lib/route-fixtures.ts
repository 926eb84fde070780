/**
 * The accounts, tokens and resources the per-route benches (routes, mixed) read: accounts with
 * every feature and a balance, tokens with every read and query scope, a few finished meetings per
 * account written as the write path leaves them (recording, transcript and digest rows, then the
 * write path's own refreshSearchText), and one series per account made through the API.
 * Every request a bench builds names the resources of its own token's account.
 */
import { analyzeDatabase, openDatabase } from '@mm/db';
import { digestAsText, findRoute, ROUTES, transcriptAsText, type RouteDef } from '@mm/contract';
import { refreshSearchText } from '../../../services/recordings/src/db/recordings.repository';
import type { Database } from '../../../services/recordings/src/db/schema';
import { createAccount, createToken, type BenchAccount, type BenchToken } from './admin';
import { loadAverage } from './proc';
import { BenchError, type CaseContext } from './types';
import type { RotatedRequest } from './wrk';

export const API_ROOT = '/api/v1';
const FIXTURE_BALANCE = 1_000_000;
const READ_SCOPES = [
  'recordings:read',
  'recordings:query',
  'recordings:write',
  'series:read',
  'series:write',
  'series:query',
  'account:read',
];

export interface FixtureAccount {
  account: BenchAccount;
  tokens: BenchToken[];
  /** Finished meetings of the account, newest first. */
  recordings: string[];
  series: string;
}

/** Every bodiless read of the route table (GET without a body), in the table's order. */
export function bodilessReads(): RouteDef[] {
  return ROUTES.filter((r) => r.method === 'get' && !r.body);
}

/**
 * Values of query parameters by name, used wherever a route declares the parameter: the agent
 * loop's calls (a small page, the feed from `latest`, one search word every fixture meeting holds).
 */
const QUERY_VALUES: Record<string, string> = { q: 'budget', after: 'latest', limit: '5' };

/** The path and query of `route` for one account's resources (path ids by the path's first segment). */
export function routePath(route: RouteDef, f: FixtureAccount, n = 0): string {
  const owner = route.path.split('/')[1];
  const id = owner === 'recordings' ? f.recordings[n % f.recordings.length] : owner === 'series' ? f.series : null;
  const filled = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (!id) throw new BenchError(`route ${route.operationId}: no fixture for path parameter ${name}`);
    return id;
  });
  const query = route.params
    .filter((p) => p.in === 'query' && (p.required || p.name in QUERY_VALUES))
    .map((p) => {
      const v = QUERY_VALUES[p.name];
      if (v === undefined)
        throw new BenchError(`route ${route.operationId}: no sample value for required query parameter ${p.name}`);
      return `${p.name}=${encodeURIComponent(v)}`;
    });
  return `${API_ROOT}${filled}${query.length ? `?${query.join('&')}` : ''}`;
}

/** One request per token (each for its own account's resources), for wrk's rotation. */
export function rotatedRequests(route: RouteDef, fixtures: FixtureAccount[]): RotatedRequest[] {
  return fixtures.flatMap((f) =>
    f.tokens.map((t, i) => ({ path: routePath(route, f, i), headers: { Authorization: `Bearer ${t.value}` } })),
  );
}

/** Finished meetings of a series, written as the write path leaves them (see search-scale's archive loader). */
async function seedMeetings(
  databaseUrl: string,
  accountId: string,
  count: number,
  tag: string,
  series: { id: string; name: string },
): Promise<string[]> {
  const { db, pool } = openDatabase<Database>({ url: databaseUrl, schema: 'recordings', poolSize: 1 });
  const ids: string[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const id = `rec_${tag}_${accountId.slice(-10)}_${i}`;
      const at = new Date(Date.now() - (i + 1) * 3_600_000);
      const text = `The budget review for quarter ${i + 1}: we agreed to keep the plan and ship on Friday.`;
      await db.transaction().execute(async (trx) => {
        await trx.deleteFrom('transcript').where('recordingId', '=', id).execute();
        await trx.deleteFrom('digest').where('recordingId', '=', id).execute();
        await trx.deleteFrom('recording').where('id', '=', id).execute();
        const segments = [0, 1, 2, 3].map((k) => ({
          index: k,
          speaker: `speaker_${1 + (k % 2)}`,
          startMs: k * 15000,
          endMs: k * 15000 + 14000,
          text,
        }));
        const speakers = [
          { label: 'speaker_1', name: null },
          { label: 'speaker_2', name: null },
        ];
        await trx
          .insertInto('transcript')
          .values({
            recordingId: id,
            language: 'en',
            speakers: JSON.stringify(speakers),
            segments: JSON.stringify(segments),
            stats: JSON.stringify({ speakers: [], totalTurns: segments.length, durationMs: 60000 }),
            readChars: transcriptAsText({ speakers, segments }).length,
          } as never)
          .execute();
        const sections = [
          { kind: 'summary', title: 'Summary', text },
          { kind: 'decision_list', title: 'Decisions', items: ['Keep the plan.'] },
          { kind: 'action_item_list', title: 'Action items', items: [{ text: 'Ship on Friday.', owner: null }] },
        ];
        await trx
          .insertInto('digest')
          .values({
            recordingId: id,
            type: 'MEETING',
            language: 'en',
            title: `Budget review ${i + 1}`,
            sections: JSON.stringify(sections),
            markdown: `# Budget review ${i + 1}\n\n${text}`,
            generatedAt: at,
            textChars: digestAsText(sections).length,
          } as never)
          .execute();
        await trx
          .insertInto('recording')
          .values({
            id,
            accountId,
            tokenId: null,
            source: 'api',
            status: 'READY',
            title: null,
            kind: 'MEETING',
            seriesId: series.id,
            seriesName: series.name,
            outputLanguage: 'auto',
            naming: 'skip',
            keyterms: [],
            recordedAt: new Date(at.getTime() - 600_000),
            createdAt: at,
            readyAt: new Date(at.getTime() + 300_000),
            durationMs: 60000,
            minutes: 1,
            attachmentMinutes: 0,
            audioKey: `audio/${id}`,
            holdRef: `hold_${id}`,
            charged: true,
            jobId: `job_${id}`,
            readyOnce: true,
            updatedAt: at,
          } as never)
          .execute();
        await refreshSearchText(trx, id);
      });
      ids.push(id);
    }
  } finally {
    await db.destroy().catch(() => pool.end());
  }
  return ids;
}

async function createSeries(gateway: string, token: BenchToken, name: string): Promise<string> {
  const res = await fetch(`${gateway}${API_ROOT}/series`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token.value}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name }),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 201 && res.status !== 200)
    throw new BenchError(`POST ${API_ROOT}/series answered ${res.status}: ${text}`);
  const body = JSON.parse(text) as { id?: string; series?: { id?: string } };
  const id = body.series?.id ?? body.id;
  if (!id) throw new BenchError(`POST ${API_ROOT}/series answered no id: ${text}`);
  return id;
}

/** Accounts (every feature, a balance), their tokens, meetings and a series; ten accounts at a time. */
export async function makeFixtures(
  gateway: string,
  databaseUrl: string,
  shape: { accounts: number; tokensPerAccount: number; meetingsPerAccount: number; tag: string },
): Promise<FixtureAccount[]> {
  const out: FixtureAccount[] = [];
  for (let a = 0; a < shape.accounts; a += 10) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(10, shape.accounts - a) }, async (_, i) => {
        const account = await createAccount(gateway, {
          displayName: `bench ${shape.tag} ${a + i}`,
          developerMode: true,
          // Submits and Asks spend a minute or more each, tens of thousands in a run.
          balanceMinutes: FIXTURE_BALANCE,
          features: { series: true, ask: true, memory: true },
        });
        const tokens: BenchToken[] = [];
        for (let t = 0; t < shape.tokensPerAccount; t++) {
          tokens.push(
            await createToken(gateway, account.id, {
              name: `bench ${shape.tag} ${t}`,
              scopes: READ_SCOPES,
              expiresInDays: 30,
            }),
          );
        }
        const name = `Bench series ${a + i}`;
        const series = await createSeries(gateway, tokens[0], name);
        const recordings = await seedMeetings(databaseUrl, account.id, shape.meetingsPerAccount, shape.tag, {
          id: series,
          name,
        });
        return { account, tokens, recordings, series };
      }),
    );
    out.push(...batch);
  }
  return out;
}

export interface FixtureShape {
  accounts: number;
  tokensPerAccount: number;
  meetingsPerAccount: number;
  tag: string;
}

/**
 * ANALYZE the bench database once its fixtures are in, as autovacuum does on a production server.
 * This machine's Postgres runs with autovacuum off, so a table the bench filled would keep no
 * statistics, and the planner would guess (a series read scanned every READY meeting of every
 * account for its counts: docs/decisions.md, "Statistics in the bench").
 */
async function gatherStatistics(databaseUrl: string): Promise<string> {
  const started = performance.now();
  const { autovacuum } = await analyzeDatabase(databaseUrl);
  return `statistics gathered (ANALYZE, ${Math.round(performance.now() - started)} ms; this server's autovacuum is ${autovacuum ? 'on' : 'off'})`;
}

/** What the routes and mixed cases start from: the gateway's URL, the load average, the fixtures. */
export async function prepareFixtures(
  ctx: CaseContext,
  shape: FixtureShape,
): Promise<{ gateway: string; loadAtStart: number; fixtures: FixtureAccount[]; tokens: number }> {
  const gateway = ctx.stack.url('gateway');
  const loadAtStart = loadAverage();
  const fixtures = await makeFixtures(gateway, ctx.opts.databaseUrl, shape);
  const tokens = fixtures.reduce((a, f) => a + f.tokens.length, 0);
  ctx.log(`${fixtures.length} accounts, ${tokens} tokens, ${shape.meetingsPerAccount} meetings and a series each`);
  ctx.log(await gatherStatistics(ctx.opts.databaseUrl));
  return { gateway, loadAtStart, fixtures, tokens };
}

/**
 * The agent loop's calls that carry a body (contract: "The agent loop"): submit, naming skip, and
 * Ask on a meeting and on a series. Their engines are stubbed as the bench's stack has them: no
 * pipeline consumes the submitted jobs or the naming skip's generate job (they wait on the same
 * bus), and Ask runs the ask service's default extractive engine (no remote model).
 */
export const BODIED_CALLS = ['submitRecording', 'skipRecordingNaming', 'askRecording', 'askSeries'] as const;

/**
 * A one-second 8 kHz 16-bit mono WAV whose samples are all 0x2020 (a faint DC level, printable
 * bytes), as a multipart body with its boundary.
 */
export function submitBody(): { body: Buffer; contentType: string } {
  const rate = 8000;
  const data = Buffer.alloc(rate * 2, 0x20);
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(data.length, 40);
  const boundary = 'benchBoundary7MA4YWxkTrZu0gW';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="naming"\r\n\r\nskip\r\n--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="second.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
    ),
    header,
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

const ASK_BODY = Buffer.from(JSON.stringify({ question: 'What did we agree about the budget?' }));
const SKIP_BODY = Buffer.from(JSON.stringify({ action: 'skip' }));

/**
 * One request per token for a repeatable bodied call (submit, the two Asks), each naming its own
 * account's meeting or series; `prefix` '' sends them straight to a service (the gateway's
 * /api/v1 is not part of a service's paths).
 */
export function bodiedRequests(
  op: (typeof BODIED_CALLS)[number],
  fixtures: FixtureAccount[],
  prefix = API_ROOT,
): RotatedRequest[] {
  const route = findRoute(op);
  if (!route) throw new BenchError(`the route table has no ${op}`);
  const submit = op === 'submitRecording' ? submitBody() : null;
  return fixtures.flatMap((f) =>
    f.tokens.map((t, i) => {
      const path = routePath(route, f, i).replace(API_ROOT, prefix);
      const headers = {
        Authorization: `Bearer ${t.value}`,
        'Content-Type': submit ? submit.contentType : 'application/json',
      };
      return {
        path,
        headers,
        method: route.method,
        body: submit ? submit.body : op === 'skipRecordingNaming' ? SKIP_BODY : ASK_BODY,
      };
    }),
  );
}

/**
 * Meetings waiting at NAMING (transcribed, a suggestion deadline a day away so the service's own
 * timer leaves them alone), `perAccount` for each account, and one naming skip request per
 * meeting, interleaved over the accounts' tokens: each can be sent once (measureEachOnce).
 */
export async function namingSkipRequests(
  databaseUrl: string,
  fixtures: FixtureAccount[],
  perAccount: number,
  tag: string,
): Promise<RotatedRequest[]> {
  const route = findRoute('skipRecordingNaming');
  if (!route) throw new BenchError('the route table has no skipRecordingNaming');
  const { db, pool } = openDatabase<Database>({ url: databaseUrl, schema: 'recordings', poolSize: 1 });
  const byAccount: string[][] = [];
  const stamp = Date.now().toString(36);
  try {
    for (const f of fixtures) {
      const ids = Array.from({ length: perAccount }, (_, i) => `rec_${tag}_${stamp}_${f.account.id.slice(-8)}_${i}`);
      const now = new Date();
      const turns = [0, 1].map((k) => ({
        index: k,
        speaker: `speaker_${k + 1}`,
        startMs: k * 15000,
        endMs: k * 15000 + 14000,
        text: 'Hello, I am here for the budget review.',
      }));
      const segments = JSON.stringify(turns);
      const speakers = [
        { label: 'speaker_1', name: null },
        { label: 'speaker_2', name: null },
      ];
      for (let at = 0; at < ids.length; at += 500) {
        const chunk = ids.slice(at, at + 500);
        await db.transaction().execute(async (trx) => {
          await trx
            .insertInto('transcript')
            .values(
              chunk.map((id) => ({
                recordingId: id,
                language: 'en',
                speakers: JSON.stringify(speakers),
                segments,
                stats: JSON.stringify({ speakers: [], totalTurns: 2, durationMs: 30000 }),
                readChars: transcriptAsText({ speakers, segments: turns }).length,
              })),
            )
            .execute();
          await trx
            .insertInto('recording')
            .values(
              chunk.map((id) => ({
                id,
                accountId: f.account.id,
                tokenId: null,
                source: 'api',
                status: 'NAMING',
                title: null,
                kind: 'MEETING',
                seriesId: null,
                seriesName: null,
                outputLanguage: 'MATCH',
                naming: 'default',
                keyterms: [],
                recordedAt: now,
                createdAt: now,
                durationMs: 30000,
                minutes: 1,
                attachmentMinutes: 0,
                audioKey: `audio/${id}`,
                holdRef: `hold_${id}`,
                charged: true,
                jobId: `job_${id}`,
                namingOpen: true,
                namingDeadline: new Date(now.getTime() + 86_400_000),
                updatedAt: now,
              })),
            )
            .execute();
        });
      }
      byAccount.push(ids);
    }
  } finally {
    await db.destroy().catch(() => pool.end());
  }
  const out: RotatedRequest[] = [];
  for (let i = 0; i < perAccount; i++) {
    fixtures.forEach((f, a) => {
      const t = f.tokens[i % f.tokens.length];
      out.push({
        path: `${API_ROOT}${route.path.replace('{id}', byAccount[a][i])}`,
        headers: { Authorization: `Bearer ${t.value}`, 'Content-Type': 'application/json' },
        method: 'post',
        body: SKIP_BODY,
      });
    });
  }
  return out;
}
