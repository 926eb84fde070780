import type { MigrationSet } from '@mm/db';
import { createRecordings } from './0001_create_recordings';
import { addSearchText } from './0002_add_search_text';
import { createSilentMeeting } from './0003_create_silent_meeting';
import { searchTrigramIndex } from './0004_search_trigram_index';

export const migrations: MigrationSet = {
  '0001_create_recordings': createRecordings,
  '0002_add_search_text': addSearchText,
  '0003_create_silent_meeting': createSilentMeeting,
  '0004_search_trigram_index': searchTrigramIndex,
};
