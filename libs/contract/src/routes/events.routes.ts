/** Route definition of the events service: the feed. */
import { LIMITS } from '../catalog';
import type { RouteDef } from '../routes.types';
import { described as d } from '../schema-helpers';
import { EVENTS_CURSOR_MAX_CHARS, eventPageSchema } from '../schemas/events.schemas';
import { limitParam, ok, query } from './route-helpers';

export const listEvents: RouteDef = {
  operationId: 'listEvents',
  method: 'get',
  path: '/events',
  scopes: ['recordings:read', 'recordings:write'],
  spends: false,
  rateClass: 'read',
  service: 'events',
  summary: { en: 'Read the events feed', fa: 'خواندن خوراک رویدادها' },
  description: {
    en: "What happened to the owner's meetings, oldest first; events carry ids, status, an error code or the kind of change, never content. Delivery is at least once: skip events already handled by id. A full page means read the next at once; otherwise wait about a minute. A cursor older than 30 days is 410 CURSOR_EXPIRED.",
    fa: 'آنچه برای جلسه‌های صاحب حساب رخ داد، از قدیمی‌ترین؛ رویدادها فقط شناسه، وضعیت، کد خطا یا نوع تغییر دارند و هرگز محتوای جلسه ندارند. تحویل دست‌کم یک بار است: رویدادهای پردازش‌شده را با شناسه کنار بگذارید. صفحهٔ پر یعنی صفحهٔ بعد را بی‌درنگ بخوانید؛ وگرنه حدود یک دقیقه صبر کنید. نشانگر قدیمی‌تر از ۳۰ روز پاسخ ۴۱۰ CURSOR_EXPIRED می‌گیرد.',
  },
  params: [
    query(
      'after',
      d(
        { type: 'string', minLength: 1, maxLength: EVENTS_CURSOR_MAX_CHARS },
        'A nextCursor exactly as received, or `latest` (no events, returns a cursor to read on from). Absent starts from the oldest event kept.',
        'مقدار nextCursor دقیقاً همان‌گونه که دریافت شد، یا `latest` (بدون رویداد، نشانگری برای ادامهٔ خواندن برمی‌گرداند). بدون آن، خواندن از قدیمی‌ترین رویداد نگه‌داشته‌شده آغاز می‌شود.',
      ),
    ),
    limitParam(LIMITS.eventsLimitMax, LIMITS.eventsLimitDefault),
  ],
  responses: [ok(eventPageSchema, 'A page of events.', 'یک صفحه از رویدادها.')],
  errors: ['VALIDATION', 'CURSOR_EXPIRED'],
};
