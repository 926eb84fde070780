import type { MigrationSet } from '@mm/db';
import { createRecordings } from './0001_create_recordings';
import { addSearchText } from './0002_add_search_text';

export const migrations: MigrationSet = {
  '0001_create_recordings': createRecordings,
  '0002_add_search_text': addSearchText,
};
