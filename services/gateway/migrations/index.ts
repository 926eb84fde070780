import type { MigrationSet } from '@mm/db';
import { createAccess } from './0001_create_access';
import { addFeatureMemory } from './0002_add_feature_memory';
import { addAccessVersion } from './0003_access_version';
import { addSignIn } from './0004_sign_in';
import { deadLetterReplay } from './0005_dead_letter_replay';

export const migrations: MigrationSet = {
  '0001_create_access': createAccess,
  '0002_add_feature_memory': addFeatureMemory,
  '0003_access_version': addAccessVersion,
  '0004_sign_in': addSignIn,
  '0005_dead_letter_replay': deadLetterReplay,
};
