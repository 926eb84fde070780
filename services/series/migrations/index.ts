import type { MigrationSet } from '@mm/db';
import { createSeries } from './0001_create_series';
import { dropSeriesCounts } from './0002_drop_series_counts';
import { seriesSharing } from './0003_series_sharing';

export const migrations: MigrationSet = {
  '0001_create_series': createSeries,
  '0002_drop_series_counts': dropSeriesCounts,
  '0003_series_sharing': seriesSharing,
};
