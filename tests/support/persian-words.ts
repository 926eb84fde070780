/**
 * The stand-in's Persian mode: each English word pocketsphinx heard becomes Persian words, at
 * the same times (a two-word rendering splits the word's time). Words of the test scripts have
 * renderings that keep the digest's Persian cues ("تصمیم گرفتیم", "توافق کردیم", "باید"); any
 * other word is written letter by letter in Persian script, so every answer is Persian text.
 */
import type { AsrWord } from '../../services/pipeline/src/engines/asr';

export const PERSIAN: Record<string, string> = {
  good: 'خوب',
  morning: 'صبح',
  everyone: 'همگی',
  let: 'بیایید',
  us: 'ما',
  start: 'شروع',
  the: 'این',
  weekly: 'هفتگی',
  planning: 'برنامه‌ریزی',
  meeting: 'جلسه',
  new: 'جدید',
  release: 'انتشار',
  is: 'است',
  almost: 'تقریباً',
  ready: 'آماده',
  database: 'پایگاه‌داده',
  migration: 'مهاجرت',
  finished: 'تمام',
  yesterday: 'دیروز',
  we: 'ما',
  decided: 'تصمیم گرفتیم',
  to: 'که',
  ship: 'ارسال',
  on: 'در',
  friday: 'جمعه',
  great: 'عالی',
  news: 'خبر',
  customer: 'مشتری',
  survey: 'نظرسنجی',
  shows: 'نشان',
  that: 'که',
  people: 'مردم',
  want: 'می‌خواهند',
  a: 'یک',
  faster: 'سریع‌تر',
  search: 'جستجو',
  page: 'صفحه',
  sara: 'سارا',
  please: 'لطفاً',
  send: 'بفرستید',
  notes: 'یادداشت‌ها',
  team: 'تیم',
  tomorrow: 'فردا',
  john: 'جان',
  will: 'باید',
  fix: 'درست',
  login: 'ورود',
  problem: 'مشکل',
  before: 'قبل',
  thursday: 'پنجشنبه',
  agreed: 'توافق کردیم',
  review: 'بررسی',
  budget: 'بودجه',
  next: 'بعدی',
  monday: 'دوشنبه',
  thank: 'ممنون',
  you: 'شما',
  all: 'همه',
  and: 'و',
  of: 'از',
  for: 'برای',
  it: 'آن',
  in: 'در',
  this: 'این',
};

const LETTERS: Record<string, string> = {
  a: 'ا',
  b: 'ب',
  c: 'ک',
  d: 'د',
  e: 'ه',
  f: 'ف',
  g: 'گ',
  h: 'ح',
  i: 'ی',
  j: 'ج',
  k: 'ک',
  l: 'ل',
  m: 'م',
  n: 'ن',
  o: 'و',
  p: 'پ',
  q: 'ق',
  r: 'ر',
  s: 'س',
  t: 'ت',
  u: 'و',
  v: 'و',
  w: 'و',
  x: 'کس',
  y: 'ی',
  z: 'ز',
};

/** One English word in Persian: its rendering, else its letters in Persian script. */
export function toPersian(word: string): string {
  const lower = word.toLowerCase().replace(/[^a-z']/g, '');
  return PERSIAN[lower] ?? ([...lower].map((c) => LETTERS[c] ?? '').join('') || 'ناشناخته');
}

export function persianWords(words: AsrWord[]): AsrWord[] {
  return words.flatMap((w) => {
    const parts = toPersian(w.word).split(' ');
    const step = (w.endMs - w.startMs) / parts.length;
    return parts.map((word, i) => ({
      word,
      startMs: Math.round(w.startMs + i * step),
      endMs: Math.round(w.startMs + (i + 1) * step),
    }));
  });
}
