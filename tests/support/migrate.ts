import { migrateSchema, type MigrationSet } from '@mm/db';
import { migrations as account } from '../../services/account/migrations';
import { migrations as recordings } from '../../services/recordings/migrations';
import { migrations as pipeline } from '../../services/pipeline/migrations';
import { migrations as series } from '../../services/series/migrations';
import { migrations as ask } from '../../services/ask/migrations';
import { migrations as events } from '../../services/events/migrations';
import { migrations as gateway } from '../../services/gateway/migrations';
import { migrations as web } from '../../services/web/migrations';

/** Each service's schema (the names its code uses) and migrations. */
export const SERVICE_SCHEMAS: Record<string, { schema: string; migrations: MigrationSet }> = {
  account: { schema: 'account', migrations: account },
  recordings: { schema: 'recordings', migrations: recordings },
  pipeline: { schema: 'pipeline', migrations: pipeline },
  series: { schema: 'series', migrations: series },
  ask: { schema: 'ask', migrations: ask },
  events: { schema: 'events', migrations: events },
  gateway: { schema: 'access', migrations: gateway },
  web: { schema: 'web', migrations: web },
};

/** Every service's migration step against one database, as `pnpm start` runs them before the services. */
export async function migrateAll(databaseUrl: string): Promise<void> {
  for (const { schema, migrations } of Object.values(SERVICE_SCHEMAS))
    await migrateSchema(databaseUrl, schema, migrations);
}
