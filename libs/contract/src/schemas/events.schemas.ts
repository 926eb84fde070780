/** Schemas of the events feed (listEvents). */
import { EVENT_TYPES, RECORDING_STATUSES, UPDATE_CHANGES } from '../catalog';
import { annotationsOf, described as d, nullable, type JsonSchema } from '../schema-helpers';
import { arrayOf, dateTime, enumOf, failureField, idString, objectOf, responseSchema, text } from './common.schemas';
import { LIMITS } from '../catalog';

const changeField = enumOf(
  UPDATE_CHANGES,
  'recording.updated only: what changed.',
  'فقط برای recording.updated: آنچه تغییر کرد.',
);

/** A conditional fragment: an event of `type` must carry `data.<field>` (its type is in `data`). */
function dataWhen(type: string, field: string, schema: JsonSchema): JsonSchema {
  return {
    if: {
      type: 'object',
      properties: { type: d({ const: type }, `The condition: the event is ${type}.`, `شرط: رویداد ${type} است.`) },
      required: ['type'],
    },
    then: {
      type: 'object',
      properties: {
        data: d(
          { type: 'object', properties: { [field]: annotationsOf(schema) }, required: [field] },
          `With ${type}, data carries ${field}.`,
          `همراه ${type}، data فیلد ${field} را دارد.`,
        ),
      },
      required: ['data'],
    },
  };
}

/** The longest events cursor: what listEvents' `after` takes. */
export const EVENTS_CURSOR_MAX_CHARS = 200;

/** One event. `data` never carries meeting content. */
export const eventSchema: JsonSchema = {
  ...objectOf(
    {
      id: idString(
        'Event id, stable per event; skip events already handled by it.',
        'شناسهٔ رویداد که برای هر رویداد ثابت است؛ رویدادهای پردازش‌شده را با آن کنار بگذارید.',
      ),
      type: enumOf(EVENT_TYPES, 'What happened.', 'آنچه رخ داد.'),
      recordingId: idString('The meeting the event is about.', 'جلسه‌ای که رویداد دربارهٔ آن است.'),
      seriesId: nullable(
        idString(
          "The meeting's series at the time of the change; null when in none or while series are switched off.",
          'مجموعهٔ جلسه در زمان تغییر؛ اگر در هیچ مجموعه‌ای نبود یا قابلیت مجموعه‌ها خاموش بود null است.',
        ),
      ),
      occurredAt: dateTime(
        'When it happened; follow feed order, not this time.',
        'زمان رخ دادن؛ ترتیب خوراک را دنبال کنید، نه این زمان را.',
      ),
      data: objectOf(
        {
          status: enumOf(
            RECORDING_STATUSES,
            "The meeting's status with this event.",
            'وضعیت جلسه همراه با این رویداد.',
          ),
          error: failureField,
          change: changeField,
        },
        'Facts of the event: status always, error with recording.failed, change with recording.updated.',
        'جزئیات رویداد: وضعیت همیشه، خطا همراه recording.failed و نوع تغییر همراه recording.updated.',
        ['status'],
      ),
    },
    "Something that happened to one of the owner's meetings.",
    'رویدادی که برای یکی از جلسه‌های صاحب حساب رخ داد.',
  ),
  allOf: [dataWhen('recording.failed', 'error', failureField), dataWhen('recording.updated', 'change', changeField)],
};

/** The page of listEvents. */
export const eventPageSchema = responseSchema(
  {
    events: arrayOf(eventSchema, LIMITS.eventsLimitMax, 'Events, oldest first.', 'رویدادها، از قدیمی‌ترین.'),
    nextCursor: text(
      'Always present: keep it and send it back as `after` exactly as received, after handling the page.',
      'همیشه وجود دارد: پس از پردازش صفحه آن را نگه دارید و دقیقاً همان‌گونه که دریافت شد به‌عنوان `after` بفرستید.',
      { minLength: 1, maxLength: EVENTS_CURSOR_MAX_CHARS },
    ),
  },
  'A page of the events feed.',
  'یک صفحه از خوراک رویدادها.',
);
