import type { MigrationSet } from '@mm/db';
import { createAccess } from './0001_create_access';

export const migrations: MigrationSet = {
  '0001_create_access': createAccess,
};
