import type { Locale } from './messages';

/** The series pages' management words, in English and Persian. */
const en = {
  newSeries: 'New series',
  seriesName: 'Name',
  titleStyle: 'Meeting titles',
  titleSession: 'Series name and date',
  titleTopic: "Each meeting's own title",
  create: 'Create series',
  created: 'Series created.',
  keyterms: 'Keyterms of this series',
  keytermsHint: 'One term per line, at most 100; meetings filed here that use keyterms cost 20% more.',
  inherit: "Also use my account's keyterms",
  saveKeyterms: 'Save keyterms',
  saved: 'Saved.',
  SERIES_NAME_TAKEN: 'You already have a series of that name.',
  SERIES_LIMIT: 'You already have 50 series.',
  VALIDATION: 'That was refused: {message}',
  GENERIC: 'That did not work ({code}). Try again.',
};

type Words = typeof en;

const fa: Words = {
  newSeries: 'مجموعهٔ تازه',
  seriesName: 'نام',
  titleStyle: 'عنوان جلسه‌ها',
  titleSession: 'نام مجموعه و تاریخ',
  titleTopic: 'عنوان خود هر جلسه',
  create: 'ساختن مجموعه',
  created: 'مجموعه ساخته شد.',
  keyterms: 'واژه‌های کلیدی این مجموعه',
  keytermsHint: 'هر خط یک واژه، حداکثر ۱۰۰؛ جلسه‌هایی که اینجا با واژه‌های کلیدی بایگانی شوند ۲۰٪ گران‌ترند.',
  inherit: 'واژه‌های کلیدی حسابم هم به کار رود',
  saveKeyterms: 'ذخیرهٔ واژه‌ها',
  saved: 'ذخیره شد.',
  SERIES_NAME_TAKEN: 'مجموعه‌ای با این نام دارید.',
  SERIES_LIMIT: 'هم‌اکنون ۵۰ مجموعه دارید.',
  VALIDATION: 'پذیرفته نشد: {message}',
  GENERIC: 'انجام نشد ({code}). دوباره امتحان کنید.',
};

const CATALOGUE: Record<Locale, Words> = { en, fa };

export function seriesText(locale: Locale): Words {
  return CATALOGUE[locale];
}

/** A refusal of the series service as the page's words. */
export function seriesRefusal(t: Words, code: string | undefined): string | null {
  if (!code) return null;
  if (code === 'SERIES_NAME_TAKEN' || code === 'SERIES_LIMIT') return t[code];
  return t.GENERIC.replace('{code}', code.replace(/[^A-Z_]/g, '').slice(0, 40));
}
