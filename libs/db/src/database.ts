import { existsSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, CamelCasePlugin } from 'kysely';
import { Pool, Client } from 'pg';
import { nameStatements } from './prepared';

/** Options for a service's database handle. */
export interface DatabaseOptions {
  url: string;
  /** The service's own Postgres schema; every query of the handle runs inside it. */
  schema: string;
  poolSize?: number;
}

/** The sslmodes node-postgres 8 reads otherwise than libpq: as verify-full (pg-connection-string 2.7+). */
const NOT_LIBPQ_SSLMODE = /[?&]sslmode=(prefer|require|verify-ca)(&|$)/;

/**
 * A DATABASE_URL as libpq (psql, the bootstrap Job, every managed offering's documentation) reads
 * it. node-postgres 8 reads `sslmode=require` (and `prefer`, `verify-ca`) as `verify-full` against
 * Node's own CAs, so `require` fails against RDS, Cloud SQL or any server signed by a private CA
 * ("unable to verify the first certificate") and prints a multi-line warning first. With libpq's
 * meaning, `require` encrypts without verifying (with `sslrootcert`: checks the CA, as `verify-ca`),
 * and `verify-full` (with `sslrootcert=<the provider's CA file>`) verifies the server: what
 * node-postgres 9 will do. Other URLs are left as they are.
 */
export function libpqUrl(url: string): string {
  // As pg-connection-string reads it: surrounding white space (a Secret made from an echoed file
  // ends in a newline) dropped, a fragment not part of the query.
  const trimmed = url.trim();
  const hash = trimmed.indexOf('#');
  const base = hash < 0 ? trimmed : trimmed.slice(0, hash);
  if (!NOT_LIBPQ_SSLMODE.test(base) || /[?&]uselibpqcompat=/.test(base)) return url;
  return `${base}&uselibpqcompat=true${hash < 0 ? '' : trimmed.slice(hash)}`;
}

/**
 * Opens a kysely handle bound to one service schema. snake_case columns are seen as camelCase.
 */
export function openDatabase<DB>(opts: DatabaseOptions): { db: Kysely<DB>; pool: Pool } {
  // search_path lets raw SQL name the service's tables unqualified, like the query builder does.
  const pool = new Pool({
    connectionString: libpqUrl(opts.url),
    max: opts.poolSize ?? 10,
    options: `-c search_path=${opts.schema}`,
  });
  keepConnectionLossesQuiet(pool);
  nameStatements(pool);
  // Tables are named unqualified and found through the connection's search_path (set above), not
  // by kysely's withSchema: that plugin is one more copy of every query's tree before it is
  // compiled, ~25% of kysely's compile time (docs/decisions.md, "Speed of every route, round 3").
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
  return { db, pool };
}

/**
 * A connection the server cuts (a restart, a failover, an administrator) must not end the service.
 * The pool listens to its idle clients only; a client checked out between two queries (a
 * transaction waiting on NATS, say) would emit an 'error' nobody hears, and Node ends the process.
 * Each client gets a listener of its own: the query in flight (or the next) fails, the use case's
 * error path runs, and the pool drops the broken client when it is released.
 */
export function keepConnectionLossesQuiet(pool: Pool): void {
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
}

/** Where Debian's Postgres puts its Unix socket (unix_socket_directories). */
export const DEBIAN_POSTGRES_SOCKET_DIR = '/var/run/postgresql';

/**
 * `url` (Postgres on this machine over TCP) made to go through the server's Unix socket, when the
 * server has one in `dir` and lets the same user in over it; else `url` as it is. For every
 * service on one machine (`pnpm start`, the bench): a query's round trip on a Unix socket skips
 * the kernel's TCP path on loopback (docs/decisions.md, "Local hops over Unix sockets").
 */
export async function overLocalSocket(url: string, dir = DEBIAN_POSTGRES_SOCKET_DIR): Promise<string> {
  const u = new URL(url);
  const loopback = u.hostname === 'localhost' || u.hostname === '[::1]' || /^127\./.test(u.hostname);
  if (!loopback || u.searchParams.has('host') || !existsSync(path.join(dir, `.s.PGSQL.${u.port || 5432}`))) return url;
  u.searchParams.set('host', dir);
  const local = u.toString();
  const probe = new Client({ connectionString: local, connectionTimeoutMillis: 2000 });
  try {
    await probe.connect();
    return local;
  } catch (err) {
    // 3D000: let in, the database is not made yet (ensureDatabase makes it); anything else
    // (peer authentication for another user, say): TCP as asked.
    return (err as { code?: string }).code === '3D000' ? local : url;
  } finally {
    await probe.end().catch(() => undefined);
  }
}

/**
 * Gathers the planner's statistics of the whole database (ANALYZE); with `unlessAutovacuum`, only
 * when the server's autovacuum is off, as on some development machines: their tables would
 * otherwise keep none, and the planner would guess (a series read scanned every READY meeting for
 * its counts; docs/decisions.md, "Statistics in the bench"). A production server runs autovacuum,
 * which does this itself. Says whether it ran and whether the server runs autovacuum.
 */
export async function analyzeDatabase(
  url: string,
  opts: { unlessAutovacuum?: boolean } = {},
): Promise<{ analyzed: boolean; autovacuum: boolean }> {
  const client = new Client({ connectionString: libpqUrl(url) });
  await client.connect();
  try {
    const { rows } = await client.query<{ autovacuum: string }>('show autovacuum');
    const autovacuum = rows[0].autovacuum === 'on';
    if (autovacuum && opts.unlessAutovacuum) return { analyzed: false, autovacuum };
    await client.query('analyze');
    return { analyzed: true, autovacuum };
  } finally {
    await client.end();
  }
}

/**
 * Creates the database named in `url` when it does not exist yet (first start on a fresh
 * machine). A database that exists is only connected to: a service's own role on a bootstrapped
 * database may not reach the `postgres` database, nor create one.
 */
export async function ensureDatabase(url: string): Promise<void> {
  const target = new URL(url);
  const name = decodeURIComponent(target.pathname.replace(/^\//, ''));
  if (!name) throw new Error('DATABASE_URL names no database');
  const probe = new Client({ connectionString: libpqUrl(url) });
  try {
    await probe.connect();
    return;
  } catch (err) {
    // 3D000: the database does not exist; anything else (a wrong password, no server) is the caller's error.
    if ((err as { code?: string }).code !== '3D000') throw err;
  } finally {
    await probe.end().catch(() => undefined);
  }
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const client = new Client({ connectionString: libpqUrl(admin.toString()) });
  await client.connect();
  try {
    await client.query(`create database "${name.replace(/"/g, '""')}"`);
  } catch (err) {
    // Another replica created it first.
    if ((err as { code?: string }).code !== '42P04' && (err as { code?: string }).code !== '23505') throw err;
  } finally {
    await client.end();
  }
}
