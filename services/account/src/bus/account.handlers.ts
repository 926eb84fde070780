import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serveRequests } from '@mm/bus';
import { ApiError, createAjv } from '@mm/http';
import type { LearnInput } from '../domain/memory-note';
import type { MemoryService } from '../services/memory.service';
import type { SettingsService } from '../services/settings.service';

// These payload schemas belong in libs/contract beside the other bus payloads once it has them.
const ajv = createAjv();
const id = { type: 'string', minLength: 1, maxLength: 64 };
const texts = { type: 'array', maxItems: 500, items: { type: 'string', maxLength: 4000 } };
const validLearn = ajv.compile({
  type: 'object',
  properties: { accountId: id, meetingId: id, people: texts, terms: texts, topics: texts },
  required: ['accountId', 'meetingId', 'people', 'terms', 'topics'],
  additionalProperties: true,
});
const validSettingsGet = ajv.compile({ type: 'object', properties: { accountId: id }, required: ['accountId'], additionalProperties: true });

function checked<T>(valid: ReturnType<typeof ajv.compile>, subject: string, payload: unknown): T {
  if (!valid(payload)) throw new ApiError('VALIDATION', `${subject}: ${ajv.errorsText(valid.errors)}`);
  return payload as T;
}

/**
 * The account's requests for other services. `account.memory.learn`: notes from a finished
 * meeting, idempotent per meeting. `account.memory.notes`: the notes a new digest reads.
 * `account.settings.get`: what a new meeting needs (naming mode, memory and email settings,
 * account keyterms).
 */
export function serveAccount(nc: NatsConnection, deps: { memory: MemoryService; settings: SettingsService }, logger: Logger): Subscription[] {
  const onError = (err: unknown) => logger.error({ err }, 'account request failed');
  return [
    serveRequests(nc, 'account.memory.learn', (p) => deps.memory.learn(checked<LearnInput>(validLearn, 'account.memory.learn', p)), onError),
    serveRequests(
      nc,
      'account.memory.notes',
      (p) => deps.memory.notesForDigest(checked<{ accountId: string }>(validSettingsGet, 'account.memory.notes', p).accountId),
      onError,
    ),
    serveRequests(
      nc,
      'account.settings.get',
      (p) => deps.settings.forMeeting(checked<{ accountId: string }>(validSettingsGet, 'account.settings.get', p).accountId),
      onError,
    ),
  ];
}
