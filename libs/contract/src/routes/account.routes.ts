/** Route definitions of the account service: whoami, the account, its keyterms, settings and memory. */
import type { RouteDef } from '../routes.types';
import {
  accountKeytermsSchema,
  accountSchema,
  memoryDeleteSchema,
  memoryItemResponseSchema,
  memoryListSchema,
  replaceAccountKeytermsBodySchema,
  tokenInfoSchema,
  updateAccountSettingsBodySchema,
  updateMemoryItemBodySchema,
} from '../schemas/account.schemas';
import { idParam, jsonBody, ok } from './route-helpers';

const noteId = idParam('memory note', 'یادداشت حافظه');

export const whoami: RouteDef = {
  operationId: 'whoami',
  method: 'get',
  path: '/whoami',
  scopes: 'any',
  spends: false,
  rateClass: 'read',
  service: 'account',
  summary: { en: 'Describe the calling token', fa: 'مشخصات توکن فراخواننده' },
  description: {
    en: 'Returns the token, its owner, the wallet (with account:read) and the current upload limits. Answers every live token; called from a signed-in browser instead of with a token it answers 400 TOKEN_REQUIRED.',
    fa: 'توکن، صاحب آن، کیف پول (با account:read) و محدودیت‌های کنونی بارگذاری را برمی‌گرداند. به هر توکن معتبری پاسخ می‌دهد؛ اگر به جای توکن از مرورگری واردشده فراخوانده شود پاسخ ۴۰۰ TOKEN_REQUIRED می‌دهد.',
  },
  params: [],
  responses: [ok(tokenInfoSchema, 'The token info.', 'مشخصات توکن.')],
  errors: ['TOKEN_REQUIRED'],
};

export const getAccount: RouteDef = {
  operationId: 'getAccount',
  method: 'get',
  path: '/account',
  scopes: ['account:read'],
  spends: false,
  rateClass: 'read',
  service: 'account',
  summary: { en: 'Read the account', fa: 'خواندن حساب' },
  description: {
    en: 'The account owner, the minute balance and the settings. Phone number and email are never sent.',
    fa: 'صاحب حساب، موجودی دقیقه و تنظیمات. شمارهٔ تلفن و ایمیل هرگز فرستاده نمی‌شوند.',
  },
  params: [],
  responses: [ok(accountSchema, 'The account.', 'حساب.')],
  errors: [],
};

export const getAccountKeyterms: RouteDef = {
  operationId: 'getAccountKeyterms',
  method: 'get',
  path: '/account/keyterms',
  scopes: ['account:read'],
  spends: false,
  rateClass: 'read',
  service: 'account',
  summary: { en: 'Read account keyterms', fa: 'خواندن واژگان کلیدی حساب' },
  description: {
    en: "The account's vocabulary in saved order, used for meetings in no series and, after their own terms, for series that inherit it.",
    fa: 'واژگان کلیدی حساب به ترتیب ذخیره؛ برای جلسه‌هایی که در هیچ مجموعه‌ای نیستند و، پس از واژه‌های خود مجموعه، برای مجموعه‌هایی که آن را به ارث می‌برند به کار می‌رود.',
  },
  params: [],
  responses: [ok(accountKeytermsSchema, "The account's vocabulary.", 'واژگان کلیدی حساب.')],
  errors: [],
};

export const replaceAccountKeyterms: RouteDef = {
  operationId: 'replaceAccountKeyterms',
  method: 'put',
  path: '/account/keyterms',
  scopes: ['account:write'],
  spends: false,
  rateClass: 'settings',
  service: 'account',
  summary: { en: 'Replace account keyterms', fa: 'جایگزینی واژگان کلیدی حساب' },
  description: {
    en: "Replaces the account's whole vocabulary, with the same term rules as a series. Later meetings that use keyterms cost 20% more.",
    fa: 'کل واژگان کلیدی حساب را با همان قاعده‌های واژگان مجموعه جایگزین می‌کند. جلسه‌های بعدی که از واژگان کلیدی استفاده کنند ۲۰ درصد گران‌ترند.',
  },
  params: [],
  body: jsonBody(replaceAccountKeytermsBodySchema),
  responses: [ok(accountKeytermsSchema, 'The new vocabulary.', 'واژگان کلیدی تازه.')],
  errors: ['VALIDATION'],
};

export const listMemory: RouteDef = {
  operationId: 'listMemory',
  method: 'get',
  path: '/account/memory',
  scopes: ['account:read'],
  spends: false,
  rateClass: 'read',
  service: 'account',
  summary: { en: 'Read memory notes', fa: 'خواندن یادداشت‌های حافظه' },
  description: {
    en: 'The notes the service keeps about the owner to make digests more exact. Empty while memory is off.',
    fa: 'یادداشت‌هایی که سرویس دربارهٔ صاحب حساب نگه می‌دارد تا گزارش‌ها دقیق‌تر شوند. هنگام خاموش بودن حافظه خالی است.',
  },
  params: [],
  responses: [ok(memoryListSchema, 'The memory notes.', 'یادداشت‌های حافظه.')],
  errors: [],
};

export const updateAccountSettings: RouteDef = {
  operationId: 'updateAccountSettings',
  method: 'patch',
  path: '/account/settings',
  scopes: ['account:write'],
  spends: false,
  rateClass: 'settings',
  service: 'account',
  summary: { en: 'Change settings', fa: 'تغییر تنظیمات' },
  description: {
    en: 'Changes at least one of speakerNamingMode, memoryLearningEnabled, summaryEmailEnabled. An empty body or any other field is 400 and nothing is written.',
    fa: 'دست‌کم یکی از speakerNamingMode و memoryLearningEnabled و summaryEmailEnabled را تغییر می‌دهد. بدنهٔ خالی یا هر فیلد دیگری پاسخ ۴۰۰ می‌گیرد و چیزی ذخیره نمی‌شود.',
  },
  params: [],
  body: jsonBody(updateAccountSettingsBodySchema),
  responses: [ok(accountSchema, 'The account with its new settings.', 'حساب با تنظیمات تازه.')],
  errors: ['VALIDATION'],
};

export const updateMemoryItem: RouteDef = {
  operationId: 'updateMemoryItem',
  method: 'patch',
  path: '/account/memory/{id}',
  scopes: ['account:write'],
  spends: false,
  rateClass: 'settings',
  service: 'account',
  summary: { en: 'Edit a memory note', fa: 'ویرایش یادداشت حافظه' },
  description: {
    en: "Replaces a note's text; the note becomes pinned and the service never rewrites or deletes it. Text another note of the same category has is 409 MEMORY_DUPLICATE; while memory is off, 409 MEMORY_DISABLED.",
    fa: 'متن یک یادداشت را جایگزین می‌کند؛ یادداشت سنجاق می‌شود و سرویس دیگر هرگز آن را بازنویسی یا حذف نمی‌کند. متنی که یادداشت دیگری از همان دسته دارد پاسخ ۴۰۹ MEMORY_DUPLICATE می‌گیرد؛ هنگام خاموش بودن حافظه پاسخ ۴۰۹ MEMORY_DISABLED است.',
  },
  params: [noteId],
  body: jsonBody(updateMemoryItemBodySchema),
  responses: [ok(memoryItemResponseSchema, 'The edited note.', 'یادداشت ویرایش‌شده.')],
  errors: ['VALIDATION', 'NOT_FOUND', 'MEMORY_DISABLED', 'MEMORY_DUPLICATE'],
};

export const deleteMemoryItem: RouteDef = {
  operationId: 'deleteMemoryItem',
  method: 'delete',
  path: '/account/memory/{id}',
  scopes: ['account:write'],
  spends: false,
  rateClass: 'settings',
  service: 'account',
  summary: { en: 'Delete a memory note', fa: 'حذف یادداشت حافظه' },
  description: {
    en: 'Deletes a note; it may be learned again later from another meeting. While memory is off, 409 MEMORY_DISABLED.',
    fa: 'یک یادداشت را حذف می‌کند؛ ممکن است بعدها از جلسهٔ دیگری دوباره آموخته شود. هنگام خاموش بودن حافظه پاسخ ۴۰۹ MEMORY_DISABLED است.',
  },
  params: [noteId],
  responses: [ok(memoryDeleteSchema, 'Deleted.', 'حذف شد.')],
  errors: ['VALIDATION', 'NOT_FOUND', 'MEMORY_DISABLED'],
};
