import type { MigrationSet } from '@mm/db';
import { createRecordings } from './0001_create_recordings';
import { addSearchText } from './0002_add_search_text';
import { createSilentMeeting } from './0003_create_silent_meeting';
import { addClaimOwner } from './0004_add_claim_owner';
import { outboxVersionsAndParking } from './0005_outbox_versions_and_parking';
import { searchTrigramIndex } from './0006_search_trigram_index';
import { searchTextTokens } from './0007_search_text_tokens';
import { recordingEventSeq } from './0008_recording_event_seq';
import { askCharCounts } from './0009_ask_char_counts';
import { seriesOwner } from './0010_series_owner';
import { searchTextHeh } from './0011_search_text_heh';

export const migrations: MigrationSet = {
  '0001_create_recordings': createRecordings,
  '0002_add_search_text': addSearchText,
  '0003_create_silent_meeting': createSilentMeeting,
  '0004_add_claim_owner': addClaimOwner,
  '0005_outbox_versions_and_parking': outboxVersionsAndParking,
  '0006_search_trigram_index': searchTrigramIndex,
  '0007_search_text_tokens': searchTextTokens,
  '0008_recording_event_seq': recordingEventSeq,
  '0009_ask_char_counts': askCharCounts,
  '0010_series_owner': seriesOwner,
  '0011_search_text_heh': searchTextHeh,
};
