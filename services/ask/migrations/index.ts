import type { MigrationSet } from '@mm/db';
import { createAsk } from './0001_create_ask';

export const migrations: MigrationSet = {
  '0001_create_ask': createAsk,
};
