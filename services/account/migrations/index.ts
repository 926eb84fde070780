import type { MigrationSet } from '@mm/db';
import { createWallet } from './0001_create_wallet';

export const migrations: MigrationSet = {
  '0001_create_wallet': createWallet,
};
