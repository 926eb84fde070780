import { ensureDatabase } from '@mm/db';

/** Tests run against their own database on the machine's real Postgres; services migrate it as they start. */
export default async function globalSetup(): Promise<void> {
  process.env.DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
  await ensureDatabase(process.env.DATABASE_URL);
}
