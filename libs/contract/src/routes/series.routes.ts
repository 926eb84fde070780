/** Route definitions of the series service (Ask on a series lives in ask.routes.ts). */
import type { RouteDef } from '../routes.types';
import {
  createSeriesBodySchema,
  replaceSeriesKeytermsBodySchema,
  seriesKeytermsSchema,
  seriesListSchema,
  seriesResponseSchema,
  updateSeriesBodySchema,
} from '../schemas/series.schemas';
import { idParam, jsonBody, ok } from './route-helpers';

const seriesId = idParam('series', 'مجموعه');

export const listReadableSeries: RouteDef = {
  operationId: 'listReadableSeries',
  method: 'get',
  path: '/series/readable',
  scopes: ['series:read'],
  spends: false,
  rateClass: 'read',
  service: 'series',
  summary: { en: 'List readable series', fa: 'فهرست مجموعه‌های خواندنی' },
  description: {
    en: 'The series the caller owns, then those it joined, each group by name. Empty while series are switched off.',
    fa: 'مجموعه‌هایی که فراخواننده دارد و سپس مجموعه‌هایی که به آن‌ها پیوسته است، هر گروه به ترتیب نام. هنگام خاموش بودن مجموعه‌ها خالی است.',
  },
  params: [],
  responses: [ok(seriesListSchema, 'The readable series.', 'مجموعه‌های خواندنی.')],
  errors: [],
};

export const getSeries: RouteDef = {
  operationId: 'getSeries',
  method: 'get',
  path: '/series/{id}',
  scopes: ['series:read'],
  spends: false,
  rateClass: 'read',
  service: 'series',
  summary: { en: 'Read a series', fa: 'خواندن یک مجموعه' },
  description: {
    en: 'One series the caller owns or joined. Any other series, and every series while series are switched off, is 404.',
    fa: 'یک مجموعه که فراخواننده دارد یا به آن پیوسته است. هر مجموعهٔ دیگر، و همهٔ مجموعه‌ها هنگام خاموش بودن این قابلیت، پاسخ ۴۰۴ می‌گیرند.',
  },
  params: [seriesId],
  responses: [ok(seriesResponseSchema, 'The series.', 'مجموعه.')],
  errors: ['VALIDATION', 'NOT_FOUND'],
};

export const createSeries: RouteDef = {
  operationId: 'createSeries',
  method: 'post',
  path: '/series',
  scopes: ['series:write'],
  spends: false,
  rateClass: 'settings',
  service: 'series',
  summary: { en: 'Create a series', fa: 'ساختن یک مجموعه' },
  description: {
    en: "Creates a named group of meetings owned by the caller. A name already used by one of the owner's series (ignoring case) is 409 SERIES_NAME_TAKEN; an owner of 50 series gets 409 SERIES_LIMIT; an unlisted field is 400; while series are switched off, 404.",
    fa: 'گروهی نام‌دار از جلسه‌ها می‌سازد که از آنِ فراخواننده است. نامی که یکی از مجموعه‌های صاحب حساب دارد (بدون توجه به بزرگی و کوچکی حروف) پاسخ ۴۰۹ SERIES_NAME_TAKEN می‌گیرد؛ صاحب ۵۰ مجموعه پاسخ ۴۰۹ SERIES_LIMIT می‌گیرد؛ فیلد ناشناخته پاسخ ۴۰۰ می‌گیرد؛ هنگام خاموش بودن مجموعه‌ها پاسخ ۴۰۴ می‌گیرد.',
  },
  params: [],
  body: jsonBody(createSeriesBodySchema),
  responses: [ok(seriesResponseSchema, 'Created.', 'ساخته شد.', 201)],
  errors: ['VALIDATION', 'NOT_FOUND', 'SERIES_LIMIT', 'SERIES_NAME_TAKEN'],
};

export const updateSeries: RouteDef = {
  operationId: 'updateSeries',
  method: 'patch',
  path: '/series/{id}',
  scopes: ['series:write'],
  spends: false,
  rateClass: 'settings',
  service: 'series',
  summary: { en: 'Change a series', fa: 'تغییر یک مجموعه' },
  description: {
    en: "Changes at least one of name, defaultKind, defaultOutputLanguage, titleStyle, dateCalendar; omitted fields keep their value. Owner only: a series that is not the caller's is 404. An empty body or an unlisted field is 400.",
    fa: 'دست‌کم یکی از name و defaultKind و defaultOutputLanguage و titleStyle و dateCalendar را تغییر می‌دهد؛ فیلدهای نیامده مقدار خود را نگه می‌دارند. فقط صاحب مجموعه: مجموعه‌ای که از آنِ فراخواننده نیست پاسخ ۴۰۴ می‌گیرد. بدنهٔ خالی یا فیلد ناشناخته پاسخ ۴۰۰ می‌گیرد.',
  },
  params: [seriesId],
  body: jsonBody(updateSeriesBodySchema),
  responses: [ok(seriesResponseSchema, 'The changed series.', 'مجموعهٔ تغییریافته.')],
  errors: ['VALIDATION', 'NOT_FOUND', 'SERIES_NAME_TAKEN'],
};

export const getSeriesKeyterms: RouteDef = {
  operationId: 'getSeriesKeyterms',
  method: 'get',
  path: '/series/{id}/keyterms',
  scopes: ['series:read'],
  spends: false,
  rateClass: 'read',
  service: 'series',
  summary: { en: 'Read series keyterms', fa: 'خواندن واژگان کلیدی مجموعه' },
  description: {
    en: "The series' vocabulary and whether it inherits the account terms. Owner only; any other series is 404.",
    fa: 'واژگان کلیدی مجموعه و اینکه آیا واژه‌های حساب را هم به کار می‌برد. فقط صاحب مجموعه؛ هر مجموعهٔ دیگری پاسخ ۴۰۴ می‌گیرد.',
  },
  params: [seriesId],
  responses: [ok(seriesKeytermsSchema, "The series' vocabulary.", 'واژگان کلیدی مجموعه.')],
  errors: ['VALIDATION', 'NOT_FOUND'],
};

export const replaceSeriesKeyterms: RouteDef = {
  operationId: 'replaceSeriesKeyterms',
  method: 'put',
  path: '/series/{id}/keyterms',
  scopes: ['series:write'],
  spends: false,
  rateClass: 'settings',
  service: 'series',
  summary: { en: 'Replace series keyterms', fa: 'جایگزینی واژگان کلیدی مجموعه' },
  description: {
    en: 'Replaces the whole vocabulary of the series. Breaking a term rule is 400 naming the first problem. Owner only. Later meetings that use keyterms cost 20% more.',
    fa: 'کل واژگان کلیدی مجموعه را جایگزین می‌کند. شکستن قاعدهٔ واژه‌ها پاسخ ۴۰۰ می‌گیرد که نخستین مشکل را نام می‌برد. فقط صاحب مجموعه. جلسه‌های بعدی که از واژگان کلیدی استفاده کنند ۲۰ درصد گران‌ترند.',
  },
  params: [seriesId],
  body: jsonBody(replaceSeriesKeytermsBodySchema),
  responses: [ok(seriesKeytermsSchema, 'The new vocabulary.', 'واژگان کلیدی تازه.')],
  errors: ['VALIDATION', 'NOT_FOUND'],
};
