import type { MigrationSet } from '@mm/db';
import { createShareLink } from './0001_create_share_link';

export const migrations: MigrationSet = {
  '0001_create_share_link': createShareLink,
};
