import type { MigrationSet } from '@mm/db';
import { createEvents } from './0001_create_events';
import { meetingOrder } from './0002_meeting_order';

export const migrations: MigrationSet = {
  '0001_create_events': createEvents,
  '0002_meeting_order': meetingOrder,
};
