/**
 * The bulk loader of the archive benches (search-scale, list-scale): finished meetings written
 * straight into the recordings schema, row for row what the write path leaves behind for a READY
 * meeting (recording, transcript and digest rows; search_text = the distinct normalized tokens of
 * transcript turns, title and digest, one line per part, as services/recordings refreshSearchText
 * writes it — checked on a sample by running refreshSearchText itself). Text is drawn in
 * Postgres from a pool of generated turns (archive-text.ts), so no gigabytes cross the socket;
 * batches of INSERT … SELECT.
 *
 * The archive stays in the bench database between runs (a bench_archive.dataset row names it);
 * a run with the same shape reuses it and only a changed shape reloads (minutes, not seconds).
 */
import type { PoolClient } from 'pg';
import { openDatabase } from '@mm/db';
import { refreshSearchText } from '../../../services/recordings/src/db/recordings.repository';
import type { Database } from '../../../services/recordings/src/db/schema';
import { refreshOldSearchTexts } from './archive-refresh';
import { RARE_WORDS, turnPool } from './archive-text';
import { normalizeForSearch } from '../../../libs/text/src';
import { BenchError } from './types';

export interface ArchiveShape {
  meetings: number;
  accounts: number;
  bigAccountMeetings: number;
  /** Spoken words per minute of audio (an hour of talk is about 9,000 words). */
  wordsPerMinute: number;
  /** Share of meetings in Persian (the rest English). */
  persianShare: number;
  seed: number;
}

export const DEFAULT_ARCHIVE: ArchiveShape = {
  meetings: 100_000,
  accounts: 1_000,
  bigAccountMeetings: 5_000,
  wordsPerMinute: 150,
  persianShare: 0.3,
  seed: 14,
};

export interface LoadedArchive {
  shape: ArchiveShape;
  bigAccountId: string;
  smallAccountId: string;
  /** Meetings of the small account. */
  smallAccountMeetings: number;
  loadSeconds: number | null;
  /** Table sizes after the load (bytes), for the report. */
  bytes: { recording: number; transcript: number; digest: number };
}

const POOL_TURNS = 4000;
const BATCH = 500;
const ID_PREFIX = 'rec_arch_';

async function sizes(c: PoolClient): Promise<LoadedArchive['bytes']> {
  const r = await c.query<{ t: string; b: string }>(
    `select relname as t, pg_total_relation_size(c.oid)::text as b from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'recordings' and relname in ('recording', 'transcript', 'digest')`,
  );
  const by = Object.fromEntries(r.rows.map((x) => [x.t, Number(x.b)]));
  return { recording: by.recording ?? 0, transcript: by.transcript ?? 0, digest: by.digest ?? 0 };
}

/** A SQL literal of our own values (numbers, generated words). */
const lit = (v: string | number) => (typeof v === 'number' ? String(v) : `'${v.replace(/'/g, "''")}'`);

/**
 * One batch: the meetings (account, language, length, times, rare words planted by their share),
 * one row per turn drawn from the pool, then the transcript, digest and recording rows. Times are
 * whole milliseconds (the list cursor's unit) and strictly decrease with the meeting number.
 */
function batchSql(first: number, shape: ArchiveShape, big: string, small: string): string[] {
  const last = Math.min(shape.meetings, first + BATCH - 1);
  const others = shape.accounts - 1;
  const rare = RARE_WORDS.map((w) => `case when random() < ${w.share} then ${lit(w.raw)} end`).join(', ');
  const rareNorm = RARE_WORDS.map((w) => `when ${lit(w.raw)} then ${lit(normalizeForSearch(w.raw))}`).join(' ');
  const firstWords = (col: string) => `array_to_string((string_to_array(${col}, ' '))[1:6], ' ')`;
  const turn = (col: string, ord: number) => `(select ${col} from s where s.n = m.n and s.ord = ${ord})`;
  return [
    `create temp table m on commit drop as
     select n, '${ID_PREFIX}' || lpad(n::text, 7, '0') as id,
       case when n <= ${shape.bigAccountMeetings} then ${lit(big)} when n % ${others} = 0 then ${lit(small)} else 'acc_arch_' || (n % ${others}) end as account_id,
       random() < ${shape.persianShare} as fa,
       (case when u < 0.3 then 2 + floor(v * 10) when u < 0.8 then 15 + floor(v * 35) else 45 + floor(v * 45) end)::int as minutes,
       date_trunc('milliseconds', now() - make_interval(secs => (${shape.meetings} - n) * 900.0 + 1)) as created_at,
       array_remove(array[${rare}], null) as rare
     from (select n, random() as u, random() as v from generate_series(${first}, ${last}) n) g`,
    `create temp table s on commit drop as
     select m.n, t.ord, p.raw, p.norm from m
     cross join lateral (select ord, 1 + floor(random() * ${POOL_TURNS})::int as pick
       from generate_series(1, greatest(4, (m.minutes * ${shape.wordsPerMinute} / 40)::int)) ord) t
     join bench_pool p on p.fa = m.fa and p.i = t.pick`,
    'create index on s (n, ord)',
    'analyze s',
    `create temp table d on commit drop as
     select m.n, ${firstWords(turn('raw', 1))} as title, ${firstWords(turn('norm', 1))} as title_norm,
       concat_ws(' ', ${turn('raw', 2)}, nullif(array_to_string(m.rare, ' '), '')) as summary,
       concat_ws(' ', ${turn('norm', 2)}, nullif(array_to_string(array(select case r ${rareNorm} end from unnest(m.rare) r), ' '), '')) as summary_norm,
       ${turn('raw', 3)} as decision, ${turn('norm', 3)} as decision_norm, ${turn('raw', 4)} as action, ${turn('norm', 4)} as action_norm
     from m`,
    `insert into recordings.transcript (recording_id, language, speakers, segments, stats)
     select m.id, case when m.fa then 'fa' else 'en' end,
       '[{"label":"speaker_1","name":null},{"label":"speaker_2","name":null},{"label":"speaker_3","name":null}]'::jsonb,
       jsonb_agg(jsonb_build_object('index', s.ord - 1, 'speaker', 'speaker_' || (1 + s.ord % 3), 'startMs', (s.ord - 1) * 16000,
         'endMs', s.ord * 16000 - 500, 'text', s.raw) order by s.ord),
       jsonb_build_object('speakers', '[]'::jsonb, 'totalTurns', count(*), 'durationMs', m.minutes * 60000)
     from m join s on s.n = m.n group by m.n, m.id, m.fa, m.minutes`,
    `insert into recordings.digest (recording_id, type, language, title, sections, markdown, generated_at)
     select m.id, 'MEETING', case when m.fa then 'fa' else 'en' end, d.title,
       jsonb_build_array(jsonb_build_object('kind', 'summary', 'title', 'Summary', 'text', d.summary),
         jsonb_build_object('kind', 'decision_list', 'title', 'Decisions', 'items', jsonb_build_array(d.decision)),
         jsonb_build_object('kind', 'action_item_list', 'title', 'Action items', 'items', jsonb_build_array(jsonb_build_object('text', d.action, 'owner', null)))),
       '# ' || d.title || E'\n\n' || d.summary, m.created_at
     from m join d on d.n = m.n`,
    // searchTokens (libs/text) in SQL: the parts (turns, title, digest text), each token on the
    // line of the first part holding it, in order of first appearance.
    `create temp table p on commit drop as
     select n, ord - 1 as part, norm as txt from s
     union all select d.n, c.turns, d.title_norm from d join (select n, count(*)::int as turns from s group by n) c on c.n = d.n
     union all select d.n, c.turns + 1, concat_ws(E'\\n', d.summary_norm, d.decision_norm, d.action_norm)
       from d join (select n, count(*)::int as turns from s group by n) c on c.n = d.n`,
    `create temp table f on commit drop as
     select n, w, min(array[part::bigint, pos]) as at from p
     cross join lateral unnest(string_to_array(translate(p.txt, E'\\t\\n\\r', '   '), ' ')) with ordinality as x(w, pos)
     where w <> '' group by n, w`,
    `create temp table st on commit drop as
     select l.n, string_agg(l.line, E'\\n' order by l.part) as search_text, (count(*) - 2)::int as turns
     from (select p.n, p.part, coalesce(string_agg(f.w, ' ' order by f.at[2]), '') as line
           from p left join f on f.n = p.n and f.at[1] = p.part group by p.n, p.part) l
     group by l.n`,
    `insert into recordings.recording (id, account_id, token_id, source, status, title, kind, output_language, naming, keyterms,
       recorded_at, created_at, ready_at, duration_ms, minutes, attachment_minutes, audio_key, hold_ref, charged, job_id, ready_once,
       search_text, search_turns, updated_at)
     select m.id, m.account_id, null, 'api', 'READY', null, 'MEETING', 'auto', 'skip', '{}',
       m.created_at - interval '10 minutes', m.created_at, m.created_at + interval '5 minutes', m.minutes * 60000, m.minutes, 0,
       'audio/' || m.id, 'hold_' || m.id, true, 'job_' || m.id, true, st.search_text, st.turns, m.created_at
     from m join st on st.n = m.n`,
  ];
}

async function loadRows(
  c: PoolClient,
  shape: ArchiveShape,
  big: string,
  small: string,
  log: (m: string) => void,
): Promise<void> {
  for (const t of ['transcript', 'digest'])
    await c.query(`delete from recordings.${t} where recording_id like '${ID_PREFIX}%'`);
  await c.query(`delete from recordings.recording where id like '${ID_PREFIX}%'`);
  const pool = turnPool(shape.seed, POOL_TURNS);
  await c.query('create temp table if not exists bench_pool (fa boolean, i int, raw text, norm text)');
  await c.query('truncate bench_pool');
  for (const [fa, turns] of [
    [false, pool.en],
    [true, pool.fa],
  ] as const) {
    await c.query(
      'insert into bench_pool select $1, i, raw, norm from unnest($2::text[], $3::text[]) with ordinality as x(raw, norm, i)',
      [fa, turns.map((t) => t.raw), turns.map((t) => t.norm)],
    );
  }
  await c.query('create index if not exists bench_pool_pick on bench_pool (fa, i)');
  await c.query('analyze bench_pool');
  await c.query(`select setseed(${(shape.seed % 1000) / 1000})`);
  const started = performance.now();
  for (let first = 1; first <= shape.meetings; first += BATCH) {
    await c.query('begin');
    for (const stmt of batchSql(first, shape, big, small)) await c.query(stmt);
    await c.query('commit');
    const done = Math.min(shape.meetings, first + BATCH - 1);
    if (done % 10_000 < BATCH || done === shape.meetings)
      log(
        `archive: ${done.toLocaleString('en-US')} of ${shape.meetings.toLocaleString('en-US')} meetings (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
  }
}

/**
 * Runs refreshSearchText (the write path's own function) on a sample of loaded meetings inside a
 * transaction that is rolled back, and fails the bench when it would write another search text.
 */
async function checkSameRows(url: string, sample: number): Promise<void> {
  const { db, pool } = openDatabase<Database>({ url, schema: 'recordings', poolSize: 1 });
  try {
    const rows = await db
      .selectFrom('recording')
      .select(['id', 'searchText'])
      .where('id', 'like', `${ID_PREFIX}%`)
      .orderBy('id')
      .limit(sample)
      .execute();
    for (const r of rows) {
      await db
        .transaction()
        .execute(async (trx) => {
          await refreshSearchText(trx, r.id);
          const after = await trx
            .selectFrom('recording')
            .select('searchText')
            .where('id', '=', r.id)
            .executeTakeFirstOrThrow();
          if (after.searchText !== r.searchText)
            throw new BenchError(`archive loader: meeting ${r.id} has a search text the write path would not write`);
          throw new RolledBack();
        })
        .catch((err: unknown) => {
          if (!(err instanceof RolledBack)) throw err;
        });
    }
  } finally {
    await db.destroy().catch(() => pool.end());
  }
}

class RolledBack extends Error {}

/**
 * The archive of `shape` for two accounts made by the caller (a big one and a small one): reused
 * when the bench database already holds it for these accounts' predecessors, else loaded.
 */
export async function ensureArchive(
  url: string,
  shape: ArchiveShape,
  accounts: () => Promise<{ big: string; small: string }>,
  log: (m: string) => void,
): Promise<LoadedArchive> {
  const { pool } = openDatabase<unknown>({ url, schema: 'recordings', poolSize: 1 });
  const c = await pool.connect();
  try {
    await c.query('create schema if not exists bench_archive');
    await c.query(
      'create table if not exists bench_archive.dataset (name text primary key, shape jsonb not null, big text not null, small text not null)',
    );
    const found = await c.query<{ shape: ArchiveShape; big: string; small: string }>(
      `select shape, big, small from bench_archive.dataset where name = 'archive'`,
    );
    const have = found.rows[0];
    const count = async (account: string) =>
      Number(
        (
          await c.query<{ n: string }>(
            `select count(*) as n from recordings.recording where account_id = $1 and id like '${ID_PREFIX}%'`,
            [account],
          )
        ).rows[0].n,
      );
    let loadSeconds: number | null = null;
    let big: string;
    let small: string;
    // jsonb keeps its own key order: compare field by field.
    const sameShape = have && (Object.keys(shape) as (keyof ArchiveShape)[]).every((k) => have.shape[k] === shape[k]);
    if (have && sameShape && (await count(have.big)) === shape.bigAccountMeetings) {
      ({ big, small } = have);
      log(
        `archive: reusing the loaded archive (${shape.meetings.toLocaleString('en-US')} meetings; accounts ${big}, ${small})`,
      );
      if ((await refreshOldSearchTexts(url, ID_PREFIX, [big, small], log)) > 0)
        await c.query('vacuum analyze recordings.recording');
    } else {
      ({ big, small } = await accounts());
      log(
        `archive: loading ${shape.meetings.toLocaleString('en-US')} meetings over ${shape.accounts} accounts (takes minutes; kept for the next run)`,
      );
      const started = performance.now();
      await c.query(`delete from bench_archive.dataset where name = 'archive'`);
      await loadRows(c, shape, big, small, log);
      await c.query('vacuum analyze recordings.recording');
      await c.query('analyze recordings.transcript');
      await c.query('analyze recordings.digest');
      await checkSameRows(url, 20);
      await c.query(`insert into bench_archive.dataset (name, shape, big, small) values ('archive', $1, $2, $3)`, [
        JSON.stringify(shape),
        big,
        small,
      ]);
      loadSeconds = (performance.now() - started) / 1000;
    }
    return {
      shape,
      bigAccountId: big,
      smallAccountId: small,
      smallAccountMeetings: await count(small),
      loadSeconds,
      bytes: await sizes(c),
    };
  } finally {
    c.release();
    await pool.end();
  }
}
