import type { MigrationSet } from '@mm/db';
import { createPipeline } from './0001_create_pipeline';
import { outboxVersionsAndParking } from './0002_outbox_versions_and_parking';

export const migrations: MigrationSet = {
  '0001_create_pipeline': createPipeline,
  '0002_outbox_versions_and_parking': outboxVersionsAndParking,
};
