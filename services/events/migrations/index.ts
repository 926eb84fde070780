import type { MigrationSet } from '@mm/db';
import { createEvents } from './0001_create_events';

export const migrations: MigrationSet = {
  '0001_create_events': createEvents,
};
