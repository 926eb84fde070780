/**
 * The accounts, tokens and resources the per-route benches (routes, mixed) read: accounts with
 * every feature and a balance, tokens with every read and query scope, a few finished meetings per
 * account written as the write path leaves them (recording, transcript and digest rows, then the
 * write path's own refreshSearchText), and one series per account made through the API.
 * Every request a bench builds names the resources of its own token's account.
 */
import { openDatabase } from '@mm/db';
import { ROUTES, type RouteDef } from '@mm/contract';
import { refreshSearchText } from '../../../services/recordings/src/db/recordings.repository';
import type { Database } from '../../../services/recordings/src/db/schema';
import { createAccount, createToken, type BenchAccount, type BenchToken } from './admin';
import { BenchError } from './types';
import type { RotatedRequest } from './wrk';

export const API_ROOT = '/api/v1';
const READ_SCOPES = ['recordings:read', 'recordings:query', 'recordings:write', 'series:read', 'series:write', 'series:query', 'account:read'];

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
      if (v === undefined) throw new BenchError(`route ${route.operationId}: no sample value for required query parameter ${p.name}`);
      return `${p.name}=${encodeURIComponent(v)}`;
    });
  return `${API_ROOT}${filled}${query.length ? `?${query.join('&')}` : ''}`;
}

/** One request per token (each for its own account's resources), for wrk's rotation. */
export function rotatedRequests(route: RouteDef, fixtures: FixtureAccount[]): RotatedRequest[] {
  return fixtures.flatMap((f) => f.tokens.map((t, i) => ({ path: routePath(route, f, i), headers: { Authorization: `Bearer ${t.value}` } })));
}

/** Finished meetings of a series, written as the write path leaves them (see search-scale's archive loader). */
async function seedMeetings(databaseUrl: string, accountId: string, count: number, tag: string, series: { id: string; name: string }): Promise<string[]> {
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
        const segments = [0, 1, 2, 3].map((k) => ({ index: k, speaker: `speaker_${1 + (k % 2)}`, startMs: k * 15000, endMs: k * 15000 + 14000, text }));
        await trx
          .insertInto('transcript')
          .values({
            recordingId: id,
            language: 'en',
            speakers: JSON.stringify([{ label: 'speaker_1', name: null }, { label: 'speaker_2', name: null }]),
            segments: JSON.stringify(segments),
            stats: JSON.stringify({ speakers: [], totalTurns: segments.length, durationMs: 60000 }),
          } as never)
          .execute();
        const sections = [
          { kind: 'summary', title: 'Summary', text },
          { kind: 'decision_list', title: 'Decisions', items: ['Keep the plan.'] },
          { kind: 'action_item_list', title: 'Action items', items: [{ text: 'Ship on Friday.', owner: null }] },
        ];
        await trx
          .insertInto('digest')
          .values({ recordingId: id, type: 'MEETING', language: 'en', title: `Budget review ${i + 1}`, sections: JSON.stringify(sections), markdown: `# Budget review ${i + 1}\n\n${text}`, generatedAt: at } as never)
          .execute();
        await trx
          .insertInto('recording')
          .values({
            id, accountId, tokenId: null, source: 'api', status: 'READY', title: null, kind: 'MEETING', seriesId: series.id, seriesName: series.name, outputLanguage: 'auto', naming: 'skip', keyterms: [],
            recordedAt: new Date(at.getTime() - 600_000), createdAt: at, readyAt: new Date(at.getTime() + 300_000), durationMs: 60000, minutes: 1,
            attachmentMinutes: 0, audioKey: `audio/${id}`, holdRef: `hold_${id}`, charged: true, jobId: `job_${id}`, readyOnce: true, updatedAt: at,
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
  if (res.status !== 201 && res.status !== 200) throw new BenchError(`POST ${API_ROOT}/series answered ${res.status}: ${text}`);
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
          balanceMinutes: 1000,
          features: { series: true, ask: true, memory: true },
        });
        const tokens: BenchToken[] = [];
        for (let t = 0; t < shape.tokensPerAccount; t++) {
          tokens.push(await createToken(gateway, account.id, { name: `bench ${shape.tag} ${t}`, scopes: READ_SCOPES, expiresInDays: 30 }));
        }
        const name = `Bench series ${a + i}`;
        const series = await createSeries(gateway, tokens[0], name);
        const recordings = await seedMeetings(databaseUrl, account.id, shape.meetingsPerAccount, shape.tag, { id: series, name });
        return { account, tokens, recordings, series };
      }),
    );
    out.push(...batch);
  }
  return out;
}
