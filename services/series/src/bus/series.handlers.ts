import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serveRequests } from '@mm/bus';
import { ApiError, createAjv } from '@mm/http';
import type { SeriesService } from '../services/series.service';

// These payload schemas belong in libs/contract beside the other bus payloads once it has them.
const ajv = createAjv();
const id = { type: 'string', minLength: 1, maxLength: 64 };
const validResolve = ajv.compile({ type: 'object', properties: { accountId: id, seriesId: id }, required: ['accountId', 'seriesId'], additionalProperties: true });
const validAddMember = ajv.compile({ type: 'object', properties: { seriesId: id, accountId: id }, required: ['seriesId', 'accountId'], additionalProperties: true });

function checked<T>(valid: ReturnType<typeof ajv.compile>, subject: string, payload: unknown): T {
  if (!valid(payload)) throw new ApiError('VALIDATION', `${subject}: ${ajv.errorsText(valid.errors)}`);
  return payload as T;
}

/**
 * The series service's requests. `series.series.resolve`: a series a meeting is filed in, as the
 * account reaches it (NOT_FOUND otherwise). `series.members.add`: the admin API's member join.
 */
export function serveSeries(nc: NatsConnection, series: SeriesService, logger: Logger): Subscription[] {
  const onError = (err: unknown) => logger.error({ err }, 'series request failed');
  return [
    serveRequests(
      nc,
      'series.series.resolve',
      (p) => {
        const { accountId, seriesId } = checked<{ accountId: string; seriesId: string }>(validResolve, 'series.series.resolve', p);
        return series.resolve(accountId, seriesId);
      },
      onError,
    ),
    serveRequests(
      nc,
      'series.members.add',
      (p) => {
        const { seriesId, accountId } = checked<{ seriesId: string; accountId: string }>(validAddMember, 'series.members.add', p);
        return series.addMember(seriesId, accountId);
      },
      onError,
    ),
  ];
}
