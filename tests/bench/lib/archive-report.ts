/** What the archive benches print about their data, and the archive's shape from the environment. */
import { openDatabase } from '@mm/db';
import { createAccount } from './admin';
import { DEFAULT_ARCHIVE, ensureArchive, type ArchiveShape, type LoadedArchive } from './archive-loader';
import type { CaseContext, ServiceName } from './types';

/** The services an archive bench starts. */
export const ARCHIVE_SERVICES: ServiceName[] = ['account', 'recordings', 'gateway'];

/** The archive of the environment's shape, its two measured accounts made through the admin API. */
export async function benchArchive(ctx: CaseContext): Promise<LoadedArchive> {
  const gateway = ctx.stack.url('gateway');
  const newAccount = async (name: string) =>
    (await createAccount(gateway, { displayName: name, developerMode: true, balanceMinutes: 10 })).id;
  const archive = await ensureArchive(
    ctx.opts.databaseUrl,
    archiveShapeFromEnv(DEFAULT_ARCHIVE),
    async () => ({ big: await newAccount('bench archive big'), small: await newAccount('bench archive small') }),
    ctx.log,
  );
  await revokeEarlierTokens(ctx.opts.databaseUrl, [archive.bigAccountId, archive.smallAccountId]);
  return archive;
}

/**
 * The archive outlives its runs, and each run makes its accounts a token: the ones earlier runs
 * made are revoked (an account keeps at most 10 active tokens). The bench's own database only.
 */
async function revokeEarlierTokens(databaseUrl: string, accountIds: string[]): Promise<void> {
  const { pool } = openDatabase<unknown>({ url: databaseUrl, schema: 'access', poolSize: 1 });
  try {
    await pool.query('update access.token set revoked_at = now() where account_id = any($1) and revoked_at is null', [
      accountIds,
    ]);
  } finally {
    await pool.end();
  }
}

export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

/**
 * `BENCH_ARCHIVE_MEETINGS` (and `BENCH_ARCHIVE_BIG`) shrink the archive for a quick try; the
 * targets are defined at the defaults.
 */
export function archiveShapeFromEnv(def: ArchiveShape): ArchiveShape {
  const n = (name: string, d: number) => (process.env[name] ? Number(process.env[name]) : d);
  return {
    ...def,
    meetings: n('BENCH_ARCHIVE_MEETINGS', def.meetings),
    bigAccountMeetings: n('BENCH_ARCHIVE_BIG', def.bigAccountMeetings),
  };
}

export function conditionLines(a: LoadedArchive): string[] {
  const s = a.shape;
  return [
    `data: ${s.meetings.toLocaleString('en-US')} READY meetings over ${s.accounts} accounts (big account ${s.bigAccountMeetings.toLocaleString('en-US')}, small account ${a.smallAccountMeetings}), ` +
      `${Math.round(s.persianShare * 100)}% Persian, 2-90 min each (mean ~31 min) at ${s.wordsPerMinute} words/min; ` +
      `tables recording ${mib(a.bytes.recording)} MiB, transcript ${mib(a.bytes.transcript)} MiB, digest ${mib(a.bytes.digest)} MiB` +
      (a.loadSeconds === null ? ' (loaded by an earlier run)' : ` (loaded in ${a.loadSeconds.toFixed(0)} s)`),
  ];
}
