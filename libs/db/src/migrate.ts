import { Kysely, Migrator, type Migration, type MigrationProvider, sql, PostgresDialect, CamelCasePlugin } from 'kysely';
import { Pool } from 'pg';
import { ensureDatabase } from './database';

/** Migrations of one service, keyed by their frozen names (`0001_create_token`). */
export type MigrationSet = Record<string, Migration>;

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: MigrationSet) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

/**
 * Creates the database if needed, then the service's schema, then runs its migrations, all under
 * one advisory lock per schema so that several replicas can start at the same moment.
 */
export async function migrateSchema(url: string, schema: string, migrations: MigrationSet): Promise<void> {
  await ensureDatabase(url);
  const pool = new Pool({ connectionString: url, max: 1 });
  const db = new Kysely<unknown>({ dialect: new PostgresDialect({ pool }), plugins: [new CamelCasePlugin()] });
  try {
    await db.connection().execute(async (conn) => {
      await sql`select pg_advisory_lock(hashtext(${'migrate:' + schema}))`.execute(conn);
      try {
        await sql`create schema if not exists ${sql.id(schema)}`.execute(conn);
        // Unqualified names in migrations land in the service's own schema.
        await sql`set search_path to ${sql.id(schema)}`.execute(conn);
        const migrator = new Migrator({
          db: conn,
          provider: new StaticProvider(migrations),
          migrationTableSchema: schema,
          // Work merged from parallel branches may bring a migration numbered below one already
          // applied; it runs then (each migration is independent of the ones numbered after it).
          allowUnorderedMigrations: true,
        });
        const { error, results } = await migrator.migrateToLatest();
        const failed = results?.find((r) => r.status === 'Error');
        if (error || failed) throw new Error(`migrating schema ${schema} failed at ${failed?.migrationName ?? '?'}: ${String(error)}`);
      } finally {
        await sql`select pg_advisory_unlock(hashtext(${'migrate:' + schema}))`.execute(conn);
      }
    });
  } finally {
    await db.destroy();
  }
}
