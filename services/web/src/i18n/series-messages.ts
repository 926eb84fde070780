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
  nameRule: 'A series name is 1 to 60 characters, with no control characters.',
  GENERIC: 'That did not work ({code}). Try again.',
  members: 'Members',
  noMembers: 'No one has joined this series yet.',
  joinedOn: 'joined {date}',
  unnamed: 'A member',
  remove: 'Remove',
  removeLabel: 'Remove {name} from this series',
  leave: 'Leave this series',
  leaveHint: 'You will no longer see its meetings. The owner can invite you again.',
  invite: 'Make an invite link',
  inviteHint:
    "Anyone signed in who opens the link can join once; it works for 7 days. Members see and ask the series' meetings; they cannot change or delete them.",
  openInvites: 'Open invite links: {n}',
  inviteCreated: 'Send this link to the person you invite. It is shown only now.',
  inviteLink: 'Invite link',
  backToSeries: 'Back to the series',
  inviteTitle: 'An invitation to a series',
  inviteBody:
    'You are invited to join the series “{name}”. As a member you see its finished meetings and can ask across them; you cannot change or delete them.',
  alreadyIn: 'You already belong to this series.',
  accept: 'Join the series',
  openSeries: 'Open the series',
  emailList: 'Email list',
  emailListHint: "One address per line, at most 50: where this series' summaries can be emailed.",
  saveEmailList: 'Save email list',
  deleteSeries: 'Delete this series',
  deleteHint: 'The series, its members and invites are removed. Its meetings stay yours, in no series.',
  deleteConfirm: 'Yes, delete this series',
  deleted: 'Series deleted.',
  seriesOff: 'Series are switched off for your account for now. Your series and their meetings are kept.',
  left: 'You left the series.',
  settings: 'Series settings',
  settingsHint: 'The kind and digest language are where the upload form starts for meetings filed here.',
  defaultKind: 'Kind of new meetings',
  defaultLanguage: 'Digest language of new meetings',
  dateCalendar: 'Calendar of the date in titles',
  calendar_AUTO: 'By digest language (Solar Hijri for Persian, Gregorian for English)',
  calendar_JALALI: 'Solar Hijri',
  calendar_GREGORIAN: 'Gregorian',
  saveSettings: 'Save settings',
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
  nameRule: 'نام مجموعه ۱ تا ۶۰ نویسه است، بی نویسه‌های کنترلی.',
  GENERIC: 'انجام نشد ({code}). دوباره امتحان کنید.',
  members: 'اعضا',
  noMembers: 'هنوز کسی به این مجموعه نپیوسته است.',
  joinedOn: 'پیوسته در {date}',
  unnamed: 'یک عضو',
  remove: 'برداشتن',
  removeLabel: 'برداشتن {name} از این مجموعه',
  leave: 'ترک این مجموعه',
  leaveHint: 'دیگر جلسه‌های آن را نمی‌بینید. مالک می‌تواند دوباره دعوتتان کند.',
  invite: 'ساختن پیوند دعوت',
  inviteHint:
    'هر کسی که وارد شده باشد و پیوند را باز کند یک بار می‌تواند بپیوندد؛ پیوند ۷ روز کار می‌کند. اعضا جلسه‌های مجموعه را می‌بینند و از آن‌ها می‌پرسند؛ نمی‌توانند آن‌ها را تغییر دهند یا پاک کنند.',
  openInvites: 'پیوندهای دعوت باز: {n}',
  inviteCreated: 'این پیوند را برای کسی که دعوت می‌کنید بفرستید. فقط همین حالا نشان داده می‌شود.',
  inviteLink: 'پیوند دعوت',
  backToSeries: 'بازگشت به مجموعه',
  inviteTitle: 'دعوت به یک مجموعه',
  inviteBody:
    'به پیوستن به مجموعهٔ «{name}» دعوت شده‌اید. به عنوان عضو جلسه‌های پایان‌یافتهٔ آن را می‌بینید و از آن‌ها می‌پرسید؛ نمی‌توانید آن‌ها را تغییر دهید یا پاک کنید.',
  alreadyIn: 'شما هم‌اکنون در این مجموعه هستید.',
  accept: 'پیوستن به مجموعه',
  openSeries: 'باز کردن مجموعه',
  emailList: 'فهرست ایمیل',
  emailListHint: 'هر خط یک نشانی، حداکثر ۵۰: جایی که خلاصه‌های این مجموعه می‌توانند فرستاده شوند.',
  saveEmailList: 'ذخیرهٔ فهرست ایمیل',
  deleteSeries: 'پاک کردن این مجموعه',
  deleteHint: 'مجموعه، اعضا و دعوت‌هایش برداشته می‌شوند. جلسه‌هایش از آنِ شما می‌مانند، بیرون از هر مجموعه.',
  deleteConfirm: 'بله، این مجموعه پاک شود',
  deleted: 'مجموعه پاک شد.',
  seriesOff: 'مجموعه‌ها فعلاً برای حساب شما خاموش‌اند. مجموعه‌ها و جلسه‌هایشان نگه داشته می‌شوند.',
  left: 'از مجموعه بیرون آمدید.',
  settings: 'تنظیمات مجموعه',
  settingsHint: 'نوع و زبان خلاصه، نقطهٔ شروع فرم بارگذاری برای جلسه‌هایی است که اینجا بایگانی می‌شوند.',
  defaultKind: 'نوع جلسه‌های تازه',
  defaultLanguage: 'زبان خلاصهٔ جلسه‌های تازه',
  dateCalendar: 'تقویم تاریخ در عنوان‌ها',
  calendar_AUTO: 'بر پایهٔ زبان خلاصه (خورشیدی برای فارسی، میلادی برای انگلیسی)',
  calendar_JALALI: 'خورشیدی',
  calendar_GREGORIAN: 'میلادی',
  saveSettings: 'ذخیرهٔ تنظیمات',
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
