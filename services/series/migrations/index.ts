import type { MigrationSet } from '@mm/db';
import { createSeries } from './0001_create_series';

export const migrations: MigrationSet = {
  '0001_create_series': createSeries,
};
