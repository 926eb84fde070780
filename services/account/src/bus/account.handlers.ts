import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serve } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { MemoryService } from '../services/memory.service';
import type { SettingsService } from '../services/settings.service';

/**
 * The account's requests (payloads checked by the bus against its table): `memoryLearn`,
 * notes from one meeting (operators and tests);
 * `memoryNotes`, the notes a new digest reads; `settingsGet`, what a new meeting needs (naming
 * mode, memory and email settings, account keyterms).
 */
export function serveAccount(
  nc: NatsConnection,
  deps: { memory: MemoryService; settings: SettingsService },
  logger: Logger,
): Subscription[] {
  const onError = (err: unknown) => logger.error({ err }, 'account request failed');
  return [
    serve(nc, BUS.memoryLearn, (p) => deps.memory.learn(p), onError),
    serve(nc, BUS.memoryNotes, (p) => deps.memory.notesForDigest(p.accountId), onError),
    serve(nc, BUS.settingsGet, (p) => deps.settings.forMeeting(p.accountId), onError),
  ];
}
