import type { MigrationSet } from '@mm/db';
import { createPipeline } from './0001_create_pipeline';

export const migrations: MigrationSet = {
  '0001_create_pipeline': createPipeline,
};
