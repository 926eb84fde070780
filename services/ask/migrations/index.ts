import type { MigrationSet } from '@mm/db';
import { createAsk } from './0001_create_ask';
import { addClaimAttempt } from './0002_add_claim_attempt';

export const migrations: MigrationSet = {
  '0001_create_ask': createAsk,
  '0002_add_claim_attempt': addClaimAttempt,
};
