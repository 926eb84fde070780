import type { Locale } from './messages';

/** Share links' words (the owner's section and the shared page), in English and Persian. */
const en = {
  share: 'Share',
  shareIntro:
    "A share link shows this meeting's digest and transcript to anyone who has it, signed in or not, and nothing else of your account. Revoke it at any time.",
  shareAudio: 'Include the audio',
  shareExpiry: 'Link works for',
  expiry1: '1 day',
  expiry7: '7 days',
  expiry30: '30 days',
  expiryNever: 'Until revoked',
  shareCreate: 'Make a share link',
  shareCreatedTitle: 'Share link made',
  shareCreated:
    'Copy the link now: it is shown only once. Anyone who has it can read this meeting until it expires or you revoke it.',
  shareLink: 'Share link',
  backToMeeting: 'Back to the meeting',
  yourLinks: 'Share links of this meeting',
  noLinks: 'No share links yet.',
  made: 'Made',
  expires: 'Expires',
  never: 'Never',
  withAudio: 'Audio',
  yes: 'Yes',
  no: 'No',
  state: 'State',
  live: 'Working',
  revoked: 'Revoked',
  expired: 'Expired',
  revoke: 'Revoke',
  sharedNote: 'A meeting shared with you. It is read only.',
  sharedTitle: 'Shared meeting',
};

type Words = typeof en;

const fa: Words = {
  share: 'اشتراک‌گذاری',
  shareIntro:
    'پیوند اشتراک، خلاصه و متن این جلسه را به هر کسی که آن را دارد نشان می‌دهد، وارد شده باشد یا نه، و چیز دیگری از حساب شما را نه. هر زمان می‌توانید آن را باطل کنید.',
  shareAudio: 'صدا هم باشد',
  shareExpiry: 'مدت اعتبار پیوند',
  expiry1: '۱ روز',
  expiry7: '۷ روز',
  expiry30: '۳۰ روز',
  expiryNever: 'تا باطل شدن',
  shareCreate: 'ساختن پیوند اشتراک',
  shareCreatedTitle: 'پیوند اشتراک ساخته شد',
  shareCreated:
    'پیوند را همین حالا کپی کنید: فقط یک بار نشان داده می‌شود. هر کس آن را داشته باشد تا پایان اعتبار یا باطل شدن، این جلسه را می‌خواند.',
  shareLink: 'پیوند اشتراک',
  backToMeeting: 'بازگشت به جلسه',
  yourLinks: 'پیوندهای اشتراک این جلسه',
  noLinks: 'هنوز پیوندی نیست.',
  made: 'ساخته‌شده',
  expires: 'پایان اعتبار',
  never: 'هرگز',
  withAudio: 'صدا',
  yes: 'بله',
  no: 'نه',
  state: 'وضعیت',
  live: 'فعال',
  revoked: 'باطل‌شده',
  expired: 'منقضی',
  revoke: 'باطل کردن',
  sharedNote: 'جلسه‌ای که با شما به اشتراک گذاشته شده است. فقط خواندنی است.',
  sharedTitle: 'جلسهٔ به‌اشتراک‌گذاشته',
};

const CATALOGUE: Record<Locale, Words> = { en, fa };

export function shareText(locale: Locale): Words {
  return CATALOGUE[locale];
}
