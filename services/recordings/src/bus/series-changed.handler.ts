import type { Kysely } from 'kysely';
import type { NatsConnection, Subscription } from 'nats';
import type { Logger } from 'pino';
import { serveRequests } from '@mm/bus';
import { ApiError, createAjv } from '@mm/http';
import type { Database } from '../db/schema';

const ajv = createAjv();
const valid = ajv.compile({
  type: 'object',
  properties: {
    seriesId: { type: 'string', minLength: 1, maxLength: 64 },
    name: { type: 'string', minLength: 1, maxLength: 60 },
    titleStyle: { enum: ['SESSION', 'TOPIC'] },
    dateCalendar: { enum: ['AUTO', 'JALALI', 'GREGORIAN'] },
  },
  required: ['seriesId', 'name', 'titleStyle', 'dateCalendar'],
  additionalProperties: false,
});

/**
 * Answers `recordings.series.changed`: the series service tells recordings that a series was
 * renamed or restyled, so the copies meetings keep for their titles and list items follow. No
 * meeting event is sent (the contract: changes to a series itself send nothing for its meetings).
 */
export function serveSeriesChanged(nc: NatsConnection, db: Kysely<Database>, logger: Logger): Subscription {
  return serveRequests(
    nc,
    'recordings.series.changed',
    async (payload) => {
      if (!valid(payload)) throw new ApiError('VALIDATION', `recordings.series.changed: ${ajv.errorsText(valid.errors)}`);
      const p = payload as { seriesId: string; name: string; titleStyle: string; dateCalendar: string };
      const res = await db
        .updateTable('recording')
        .set({ seriesName: p.name, seriesTitleStyle: p.titleStyle, seriesDateCalendar: p.dateCalendar })
        .where('seriesId', '=', p.seriesId)
        .executeTakeFirst();
      return { updated: Number(res.numUpdatedRows) };
    },
    (err) => logger.error({ err }, 'recordings.series.changed failed'),
  );
}
