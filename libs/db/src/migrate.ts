import {
  Kysely,
  Migrator,
  type Migration,
  type MigrationProvider,
  sql,
  PostgresDialect,
  CamelCasePlugin,
} from 'kysely';
import { Pool } from 'pg';
import { ensureDatabase, libpqUrl } from './database';

/** Migrations of one service, keyed by their frozen names (`0001_create_token`). */
export type MigrationSet = Record<string, Migration>;

/** Kysely's own table of applied migrations, kept in each service's schema. */
const MIGRATION_TABLE = 'kysely_migration';
/** How long a migration step waits for a lock before it fails (Postgres `lock_timeout`). */
export const MIGRATION_LOCK_TIMEOUT = '10s';

/**
 * Each migration runs with the service's schema first on its search path (`set local`: it lasts
 * for the migrations' transaction only, so it holds behind a transaction-pooling proxy too).
 */
class SchemaProvider implements MigrationProvider {
  constructor(
    private readonly schema: string,
    private readonly migrations: MigrationSet,
  ) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const inSchema =
      (step: Migration['up']): Migration['up'] =>
      async (db) => {
        await sql`set local search_path to ${sql.id(this.schema)}`.execute(db);
        // A step waiting for a table's lock queues every query of that table behind it: on a busy
        // database it gives up instead (the pod's migrate step fails and is retried; the old pods
        // keep serving), rather than stall the live service.
        await sql`set local lock_timeout = ${sql.lit(MIGRATION_LOCK_TIMEOUT)}`.execute(db);
        await step(db);
      };
    return Object.fromEntries(
      Object.entries(this.migrations).map(([name, m]) => [
        name,
        { up: inSchema(m.up), down: m.down && inSchema(m.down) },
      ]),
    );
  }
}

/**
 * The migration step of a service (`node src/main.js migrate`, the migrate initContainer, the
 * launcher, the tests' stack): makes the database when it is missing and the schema when it is
 * missing (a bootstrapped database has both: the service's role needs no CREATE on the database),
 * then runs the migrations not yet applied. Safe twice and concurrently: Kysely's migrator holds a
 * transaction-scoped advisory lock (no session lock, which a transaction pooler would break) and
 * runs every pending migration in one transaction.
 */
export async function migrateSchema(url: string, schema: string, migrations: MigrationSet): Promise<string[]> {
  await ensureDatabase(url);
  const pool = new Pool({ connectionString: libpqUrl(url), max: 2 });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
  try {
    await ensureSchema(db, schema);
    const migrator = new Migrator({
      db,
      provider: new SchemaProvider(schema, migrations),
      migrationTableSchema: schema,
      // Work merged from parallel branches may bring a migration numbered below one already
      // applied; it runs then (each migration is independent of the ones numbered after it).
      allowUnorderedMigrations: true,
    });
    const { error, results } = await migrator.migrateToLatest();
    const failed = results?.find((r) => r.status === 'Error');
    if (error || failed)
      throw new Error(`migrating schema ${schema} failed at ${failed?.migrationName ?? '?'}: ${String(error)}`);
    return (results ?? []).map((r) => r.migrationName);
  } finally {
    await db.destroy();
  }
}

/**
 * The schema and Kysely's table of applied migrations, each made only when missing. Kysely makes
 * its table with a `create schema if not exists` before it, which Postgres refuses to a role
 * without CREATE on the database even when the schema exists: the table is made here first.
 */
async function ensureSchema(db: Kysely<unknown>, schema: string): Promise<void> {
  const exists = async (table: string | null) => {
    const look =
      table === null
        ? sql`select 1 from pg_namespace where nspname = ${schema}`
        : sql`select 1 from pg_tables where schemaname = ${schema} and tablename = ${table}`;
    return (await look.execute(db)).rows.length > 0;
  };
  const create = async (table: string | null, ddl: ReturnType<typeof sql>) => {
    if (await exists(table)) return;
    try {
      await ddl.execute(db);
    } catch (err) {
      // Two migration steps at once: the other one made it between our look and our create.
      if (!(await exists(table))) throw err;
    }
  };
  await create(null, sql`create schema if not exists ${sql.id(schema)}`);
  await create(
    MIGRATION_TABLE,
    sql`create table if not exists ${sql.table(`${schema}.${MIGRATION_TABLE}`)} (name varchar(255) not null primary key, timestamp varchar(255) not null)`,
  );
}

/** Why a service's schema does not fit this build (migrations missing), or null when it does. */
export async function schemaMismatch<DB>(
  db: Kysely<DB>,
  schema: string,
  migrations: MigrationSet,
): Promise<string | null> {
  const table =
    await sql`select 1 from pg_tables where schemaname = ${schema} and tablename = ${MIGRATION_TABLE}`.execute(db);
  if (table.rows.length === 0) return `schema ${schema} has no migrations applied`;
  const applied = await sql<{ name: string }>`select name from ${sql.table(`${schema}.${MIGRATION_TABLE}`)}`.execute(
    db,
  );
  const done = new Set(applied.rows.map((r) => r.name));
  const missing = Object.keys(migrations).filter((name) => !done.has(name));
  if (missing.length) return `schema ${schema} lacks migration${missing.length > 1 ? 's' : ''} ${missing.join(', ')}`;
  return null;
}

/**
 * A service's start: refuses a schema its migrations have not all reached (run the migrate step
 * first) instead of migrating. A schema ahead of the build (migrations it does not know, applied
 * by a newer version) is served: migrations add and never remove what the version before uses,
 * so the old version keeps serving during a rollout and after a rollback (docs/decisions.md).
 * Refused, the handle is closed.
 */
export async function requireSchema<DB>(db: Kysely<DB>, schema: string, migrations: MigrationSet): Promise<void> {
  const mismatch = await schemaMismatch(db, schema, migrations).catch(async (err: unknown) => {
    await db.destroy();
    throw err;
  });
  if (mismatch === null) return;
  // Refused: the handle is closed here, the caller only reports.
  await db.destroy();
  throw new Error(
    `${mismatch}: run the migration step first (node src/main.js ${MIGRATE_COMMAND}, the migrate initContainer)`,
  );
}

/** requireSchema on a connection of its own (a process that serves no query itself: the gateway's cluster primary). */
export async function requireSchemaAt(url: string, schema: string, migrations: MigrationSet): Promise<void> {
  const db = new Kysely<unknown>({
    dialect: new PostgresDialect({ pool: new Pool({ connectionString: libpqUrl(url), max: 1 }) }),
  });
  await requireSchema(db, schema, migrations);
  await db.destroy();
}

/**
 * `node src/main.js migrate`: the service's migration step alone, reading MIGRATION_DATABASE_URL
 * (the schema's owner, where the running service has a role that may only read and write rows:
 * k8s bootstrap.sh's `<SERVICE>_DB_APP_PASSWORD`), else DATABASE_URL; the step needs no other
 * configuration or secret. Prints one line and exits 0, or 1 on failure.
 */
export function runMigrate(
  service: string,
  schema: string,
  migrations: MigrationSet,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const url = env.MIGRATION_DATABASE_URL || env.DATABASE_URL;
  if (!url) {
    process.stderr.write(`${service} migrate: MIGRATION_DATABASE_URL or DATABASE_URL must be set\n`);
    process.exit(1);
  }
  migrateSchema(url, schema, migrations).then(
    (applied) => {
      process.stdout.write(
        `${service} migrate: schema ${schema} is current${applied.length ? ` (applied ${applied.join(', ')})` : ''}\n`,
      );
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(
        `${service} migrate failed: ${(err instanceof Error ? err.message : String(err)).replace(/\s*\n\s*/g, ' ')}\n`,
      );
      process.exit(1);
    },
  );
}

/** The word that makes a service's main file run its migration step instead of the service. */
export const MIGRATE_COMMAND = 'migrate';

/** True when the process was started as the migration step (`node src/main.js migrate`). */
export function isMigrateCommand(argv: readonly string[] = process.argv): boolean {
  return argv[2] === MIGRATE_COMMAND;
}
