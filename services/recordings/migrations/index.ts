import type { MigrationSet } from '@mm/db';
import { createRecordings } from './0001_create_recordings';

export const migrations: MigrationSet = {
  '0001_create_recordings': createRecordings,
};
