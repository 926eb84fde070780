/**
 * Generated meeting text for the archive benches: English and Persian turns of realistic length,
 * with the raw forms people type (capitals, Arabic letter forms, the half-space, Persian digits)
 * and each turn's normalized form (libs/text normalizeForSearch), so the loader can write both the
 * transcript as stored and the search text the write path would derive from it.
 */
import { normalizeForSearch } from '../../../libs/text/src';
import { seededRandom } from '../../support/seeded-random';

const EN = (
  'the we and to of a that is it for on this in you have be so with about what can do at just think ' +
  'will our are if was not they but there need going one would like know next then week team time ' +
  'release customer budget plan review meeting design data issue test deploy server users feature ' +
  'question launch report schedule update project sprint backlog migration pricing contract invoice ' +
  'hiring roadmap quarter deadline estimate support ticket outage latency database dashboard metric ' +
  'onboarding feedback partner vendor security audit compliance storage network mobile android iphone ' +
  'marketing campaign newsletter webinar conference travel office kitchen parking holiday training ' +
  'friday monday tuesday morning afternoon tomorrow yesterday agreed decided follow action owner'
).split(' ');

// Persian words as people type them: some with Arabic letter forms (ي ك), some with the half-space.
const FA = (
  'ما و به از که این را با در برای است هم یک آن کار باید می‌کنیم می‌خواهیم جلسه پروژه گزارش ' +
  'بودجه مشتری طراحی داده سرور کاربران برنامه هفته بعد امروز فردا تیم انتشار بررسی تصمیم ' +
  'گرفتیم پیگیری مسئول قرارداد فاکتور استخدام فصل مهلت تخمین پشتیبانی تیکت پایگاه داشبورد ' +
  'بازاریابی کمپین همایش سفر دفتر آموزش شنبه یکشنبه دوشنبه صبح عصر توافق اقدام كتاب كار ' +
  'ميز مدير شركت نهايي خیلی خوب البته درست حالا چطور چرا وقتی اگر ولی پس ۱۴۰۲ ۱۴۰۳ ۲۵ درصد'
).split(' ');

/** Words planted into few meetings' digests, each with the share of meetings that carries it. */
export const RARE_WORDS = [
  { raw: 'Zanzibar', share: 0.002 },
  { raw: 'kubernetes', share: 0.01 },
  { raw: 'كيمياگري', share: 0.002 }, // Arabic kaf and yeh: found by the Persian forms
  { raw: 'نیم‌سال', share: 0.01 }, // with the half-space: found without it
];

export interface Turn {
  raw: string;
  norm: string;
}

/** About `words` words of one language, picked with a skew (common words often, the rest less). */
function sentence(rand: () => number, vocab: string[], words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(vocab[Math.floor(vocab.length * rand() ** 2.5)]);
  const s = out.join(' ');
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
}

/** A pool of turns (20 to 60 words each) per language; meetings are drawn from it. */
export function turnPool(seed: number, perLanguage: number): { en: Turn[]; fa: Turn[] } {
  const rand = seededRandom(seed);
  const make = (vocab: string[]) =>
    Array.from({ length: perLanguage }, () => {
      const raw = sentence(rand, vocab, 20 + Math.floor(rand() * 40));
      return { raw, norm: normalizeForSearch(raw) };
    });
  return { en: make(EN), fa: make(FA) };
}
