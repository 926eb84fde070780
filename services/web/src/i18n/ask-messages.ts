import { fillText, type Locale } from './messages';

/** The Ask tab's words (a meeting's and a series'), in English and Persian. */
const en = {
  tabMeeting: 'Meeting',
  tabAsk: 'Ask',
  tabs: 'Meeting views',
  seriesTabs: 'Series views',
  askTitle: 'Ask this meeting',
  askSeriesTitle: 'Ask across the series',
  askIntro: 'Ask a question: the answer comes from what was said, with the moments it cites.',
  askSeriesIntro: 'Ask a question across the finished meetings of this series.',
  quote: 'Each question costs {minutes} minutes from your balance.',
  quoteSeries: 'Each question costs {minutes} minutes and reads {count} meetings.',
  question: 'Your question',
  ask: 'Ask',
  earlier: 'Earlier questions and answers',
  noEarlier: 'No questions asked yet.',
  asked: 'Asked {date}',
  charged: '{minutes} minutes',
  refused: 'The service declined to answer from what was said.',
  citations: 'Cited moments',
  citation: 'Citation {n}: play from {time}',
  openTurn: 'Citation {n}: the turn at {time}',
  inMeeting: 'in {title}',
  ASK_NOT_READY: 'Questions can be asked once the meeting is ready.',
  ASK_DISABLED: 'Ask is switched off for now.',
  SERIES_ASK_TOO_FEW: 'A series can be asked once it has at least 2 finished meetings.',
  PRICE_ABOVE_MAX: 'The price changed since the page was shown: see the new price and ask again.',
  INSUFFICIENT_MINUTES: 'Your balance is short of the price: nothing was spent.',
  DAILY_LIMIT_REACHED: 'The daily limit on questions is reached. Try again tomorrow.',
  GENERATE_FAILED: 'No answer could be made this time; nothing was charged. Try again.',
  VALIDATION: 'The question must be 1 to 500 characters.',
  GENERIC: 'That did not work ({code}). Try again.',
};

type Words = typeof en;
export type AskMessages = Words & { f(key: keyof Words, values: Record<string, string>): string };

const fa: Words = {
  tabMeeting: 'جلسه',
  tabAsk: 'پرسش',
  tabs: 'نماهای جلسه',
  seriesTabs: 'نماهای مجموعه',
  askTitle: 'از این جلسه بپرسید',
  askSeriesTitle: 'پرسش از همهٔ مجموعه',
  askIntro: 'پرسشی بپرسید: پاسخ از آنچه گفته شد می‌آید، با لحظه‌هایی که به آن‌ها استناد می‌کند.',
  askSeriesIntro: 'از جلسه‌های پایان‌یافتهٔ این مجموعه بپرسید.',
  quote: 'هر پرسش {minutes} دقیقه از موجودی شما هزینه دارد.',
  quoteSeries: 'هر پرسش {minutes} دقیقه هزینه دارد و {count} جلسه را می‌خواند.',
  question: 'پرسش شما',
  ask: 'بپرس',
  earlier: 'پرسش‌ها و پاسخ‌های پیشین',
  noEarlier: 'هنوز پرسشی نشده است.',
  asked: 'پرسیده‌شده در {date}',
  charged: '{minutes} دقیقه',
  refused: 'سرویس از پاسخ دادن بر پایهٔ آنچه گفته شد خودداری کرد.',
  citations: 'لحظه‌های استنادشده',
  citation: 'استناد {n}: پخش از {time}',
  openTurn: 'استناد {n}: نوبت {time}',
  inMeeting: 'در {title}',
  ASK_NOT_READY: 'وقتی جلسه آماده شد می‌توان پرسید.',
  ASK_DISABLED: 'پرسش فعلاً خاموش است.',
  SERIES_ASK_TOO_FEW: 'از مجموعه‌ای می‌توان پرسید که دست‌کم ۲ جلسهٔ پایان‌یافته دارد.',
  PRICE_ABOVE_MAX: 'هزینه پس از نمایش صفحه تغییر کرد: هزینهٔ تازه را ببینید و دوباره بپرسید.',
  INSUFFICIENT_MINUTES: 'موجودی شما از هزینه کمتر است: چیزی خرج نشد.',
  DAILY_LIMIT_REACHED: 'به سقف روزانهٔ پرسش‌ها رسیده‌اید. فردا دوباره امتحان کنید.',
  GENERATE_FAILED: 'این بار پاسخی ساخته نشد؛ هزینه‌ای گرفته نشد. دوباره امتحان کنید.',
  VALIDATION: 'پرسش باید ۱ تا ۵۰۰ نویسه باشد.',
  GENERIC: 'انجام نشد ({code}). دوباره امتحان کنید.',
};

const CATALOGUE: Record<Locale, Words> = { en, fa };

export function askText(locale: Locale): AskMessages {
  const t = CATALOGUE[locale];
  return { ...t, f: (key, values) => fillText(t[key], values) };
}

/** A refusal code as the page's words. */
export function askRefusal(a: AskMessages, code: string | undefined): string | null {
  if (!code) return null;
  const words: Record<string, unknown> = a;
  const known = Object.hasOwn(words, code) ? words[code] : undefined;
  return /^[A-Z_]+$/.test(code) && typeof known === 'string'
    ? known
    : a.f('GENERIC', { code: code.replace(/[^A-Z_]/g, '').slice(0, 40) });
}
