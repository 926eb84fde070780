/**
 * THE app's message catalogue: every string a page shows, in English and Persian. A key missing
 * in one language fails the typecheck (`Messages` is English's shape, Persian must match it).
 */
const en = {
  appName: 'Meeting Memory',
  skipToContent: 'Skip to content',
  navHome: 'Home',
  navTokens: 'API tokens',
  navSessions: 'Sessions',
  navMain: 'Main',
  signOut: 'Sign out',
  language: 'Language',
  switchToOther: 'فارسی',
  switchToOtherLang: 'fa',
  // sign-in
  signInTitle: 'Sign in',
  email: 'Email',
  password: 'Password',
  signInButton: 'Sign in',
  forgotPassword: 'Forgot your password?',
  signInFailed: 'That email and password do not match an account.',
  signInLimited: 'Too many attempts. Wait a few minutes, then try again.',
  // set password (invite and reset links)
  setPasswordTitle: 'Set your password',
  newPassword: 'New password',
  confirmPassword: 'New password again',
  passwordHint: 'At least 10 characters; not a common password.',
  setPasswordButton: 'Set password and sign in',
  linkInvalid: 'This link was already used or has expired. Ask for a new one.',
  passwordTooShort: 'The password is too short: use at least 10 characters.',
  passwordTooLong: 'The password is too long: use at most 200 characters.',
  passwordCommon: 'That password is too easy to guess. Choose another.',
  passwordMismatch: 'The two passwords are not the same.',
  emailTaken: 'Another account already signs in with this email.',
  emailInvalid: 'That is not an email address.',
  passwordWrong: 'The current password is not right.',
  // reset
  resetTitle: 'Reset your password',
  resetIntro:
    'Enter the email you sign in with. If it belongs to an account, we email you a link that works once, for 30 minutes.',
  resetButton: 'Email me a link',
  resetSent: 'If that email belongs to an account, a link is on its way. Check your inbox.',
  resetNoMail:
    'This server cannot send email, so no link was sent. Ask the person who runs Meeting Memory for a new sign-in link.',
  chooseNewPasswordTitle: 'Choose a new password',
  backToSignIn: 'Back to sign in',
  // home
  homeTitle: 'Welcome',
  homeHello: 'Signed in as {name}.',
  homeIntro:
    'Your meetings, digests and series are sent here by your tools and the app. Manage your API tokens and sessions below.',
  // tokens
  tokensTitle: 'API tokens',
  tokensIntro:
    'A token lets your own tools and agents use the API for your account. Give each tool its own token with the fewest scopes.',
  developerMode: 'Developer mode',
  developerModeOn: 'Developer mode is on: your tokens work.',
  developerModeOff:
    'Developer mode is off: every token answers 403 DEVELOPER_MODE_OFF until you turn it on. No token is revoked.',
  turnOn: 'Turn developer mode on',
  turnOff: 'Turn developer mode off',
  newToken: 'New token',
  tokenName: 'Name',
  scopes: 'Scopes',
  groupMeetings: 'Meetings',
  groupSeries: 'Series',
  groupAccount: 'Account',
  scopeUnavailableNote: 'switched off for your account',
  expiry: 'Expires',
  expiry30: 'In 30 days',
  expiry90: 'In 90 days',
  expiry365: 'In 365 days',
  expiryNever: 'Never',
  dailyCap: 'Daily minute cap (optional)',
  dailyCapHint: 'A whole number from 1 to 100,000; empty means no cap.',
  createToken: 'Create token',
  tokenCreated: 'Your new token. Copy it now: it is shown only once.',
  copy: 'Copy',
  copied: 'Copied',
  yourTokens: 'Your tokens',
  noTokens: 'You have no active tokens.',
  created: 'Created',
  cap: 'Daily cap',
  noCap: 'None',
  never: 'Never',
  revoke: 'Revoke',
  revoked: 'The token was revoked. It stops working at once.',
  revokeSure: 'Sure',
  revokeNotConfirmed: 'Tick “Sure” beside Revoke to revoke a token.',
  revokeNotFound: 'That token was not found: it may have been revoked already. Nothing was changed.',
  errorNeedScope: 'Choose at least one scope.',
  errorName: 'Give the token a name of 1 to 100 characters.',
  errorCap: 'The daily cap must be a whole number from 1 to 100,000.',
  errorCapNoSpend:
    'A daily cap applies only to a token that can spend minutes (recordings:write, recordings:query or series:query). Leave it empty or choose one of them.',
  errorScopeUnavailable: 'A scope you chose is switched off for your account.',
  errorTokenLimit: 'You already have 10 active tokens. Revoke one first.',
  errorGeneric: 'That did not work. Check the form and try again.',
  notSavedBecause: 'Not saved: {message}',
  // sessions
  sessionsTitle: 'Sessions',
  sessionsIntro: 'Where you are signed in.',
  device: 'Device',
  lastSeen: 'Last seen',
  thisSession: 'This browser',
  signOutOthers: 'Sign out every other session',
  signedOutOthers: 'Every other session is signed out.',
  // meetings (part 2 builds these pages fully)
  meetingTitle: 'Meeting',
  untitled: 'Untitled meeting',
  status: 'Status',
  namingTitle: 'Name the speakers',
  namingMovedOn: 'This meeting has moved on; naming is closed.',
  namingSoon: 'Naming the speakers in the browser comes with the next release of the app.',
  seriesTitle: 'Series',
  meetingCount: 'Finished meetings',
  notFoundTitle: 'Not found',
  notFound: 'There is nothing here, or it is not yours to see.',
  statusQUEUED: 'Queued',
  statusTRANSCRIBING: 'Transcribing',
  statusNAMING: 'Waiting for speaker names',
  statusGENERATING: 'Writing the digest',
  statusREADY: 'Ready',
  statusFAILED: 'Failed',
  forbiddenTitle: 'Not allowed',
  navWallet: 'Wallet',
  navSettings: 'Settings',
  navKeyterms: 'Vocabulary',
  navMemory: 'Memory',
  navProfile: 'Profile',
  save: 'Save',
  saved: 'Saved.',
  walletTitle: 'Wallet',
  balance: 'Balance',
  minutes: '{n} minutes',
  heldMinutes: 'Held by meetings in progress',
  recentEntries: 'Recent entries',
  noEntries: 'Nothing yet.',
  entryKind: 'What',
  entryMinutes: 'Minutes',
  entryWhen: 'When',
  kind_credit: 'Credit',
  kind_hold: 'Meeting held',
  kind_capture: 'Meeting charged',
  kind_release: 'Hold released',
  kind_ask_charge: 'Ask',
  credit_trial: 'Trial minutes',
  holdsNote: 'Minutes in brackets are set aside while a meeting is in progress; only its charge spends them.',
  credit_grant: 'Minutes granted',
  credit_purchase: 'Minutes bought',
  buyTitle: 'Buy minutes',
  buyPack: 'Pack',
  buyButton: 'Buy',
  buyHint: 'The minutes are added to the balance at once.',
  buyNone: 'Minutes are added by the people who run this service; ask them for more.',
  bought: '{n} minutes added.',
  settingsTitle: 'Settings',
  namingMode: 'Speaker naming',
  namingAUTO: 'Ask, but do not wait',
  namingFORCE_ON: 'Ask and wait for names',
  namingFORCE_OFF: 'Guess names, never ask',
  summaryEmail: 'Email me each new digest with a PDF',
  deleteAudio: "Delete each meeting's audio once its digest is ready",
  deleteAudioHint:
    'The transcript, digest, search and Ask stay; the audio can then no longer be played, shared or transcribed again. Meetings already ready keep theirs.',
  memoryLearning: 'Learn memory notes from new meetings',
  appLanguage: 'App language',
  keytermsTitle: 'Vocabulary',
  keytermsIntro:
    'Words transcription should recognize: one per line, at most 100, each up to 5 words. Meetings that use them cost 20% more.',
  keyterms: 'Terms',
  memoryTitle: 'Memory',
  memoryIntro:
    'Short notes the service keeps about you to make digests more exact. Edited notes are kept as you wrote them.',
  memoryOff: 'Memory is off for your account.',
  noNotes: 'No notes yet.',
  note: 'Note',
  deleteNote: 'Delete',
  category_ABOUT_YOU: 'About you',
  category_PEOPLE: 'People',
  category_TERMS: 'Terms',
  profileTitle: 'Profile',
  displayName: 'Display name',
  changePassword: 'Change password',
  currentPassword: 'Current password',
  emailTitle: 'Email',
  emailNow: 'You sign in with {email}, and summaries are sent there.',
  emailNone: 'This account has no email yet.',
  newEmail: 'New email',
  changeEmail: 'Change email',
  emailChanged: 'Your email was changed. Sign in with the new one from now on.',
  passwordChanged: 'Your password was changed; every other session is signed out.',
};

export type Messages = { [K in keyof typeof en]: string };

const fa: Messages = {
  appName: 'حافظهٔ جلسه',
  skipToContent: 'رفتن به محتوا',
  navHome: 'خانه',
  navTokens: 'توکن‌های API',
  navSessions: 'نشست‌ها',
  navMain: 'اصلی',
  signOut: 'خروج',
  language: 'زبان',
  switchToOther: 'English',
  switchToOtherLang: 'en',
  signInTitle: 'ورود',
  email: 'ایمیل',
  password: 'گذرواژه',
  signInButton: 'ورود',
  forgotPassword: 'گذرواژه را فراموش کرده‌اید؟',
  signInFailed: 'این ایمیل و گذرواژه با هیچ حسابی جور نیست.',
  signInLimited: 'تلاش‌ها بیش از حد بود. چند دقیقه صبر کنید و دوباره امتحان کنید.',
  setPasswordTitle: 'گذرواژه‌تان را تعیین کنید',
  newPassword: 'گذرواژهٔ تازه',
  confirmPassword: 'تکرار گذرواژهٔ تازه',
  passwordHint: 'دست‌کم ۱۰ نویسه؛ نه یک گذرواژهٔ رایج.',
  setPasswordButton: 'تعیین گذرواژه و ورود',
  linkInvalid: 'این پیوند پیش‌تر به کار رفته یا منقضی شده است. پیوند تازه بخواهید.',
  passwordTooShort: 'گذرواژه کوتاه است: دست‌کم ۱۰ نویسه بنویسید.',
  passwordTooLong: 'گذرواژه بلند است: حداکثر ۲۰۰ نویسه.',
  passwordCommon: 'این گذرواژه آسان حدس زده می‌شود. گذرواژهٔ دیگری برگزینید.',
  passwordMismatch: 'دو گذرواژه یکسان نیستند.',
  emailTaken: 'حساب دیگری با این ایمیل وارد می‌شود.',
  emailInvalid: 'این نشانی ایمیل نیست.',
  passwordWrong: 'گذرواژهٔ کنونی درست نیست.',
  resetTitle: 'بازنشانی گذرواژه',
  resetIntro:
    'ایمیلی را که با آن وارد می‌شوید بنویسید. اگر از آنِ حسابی باشد، پیوندی می‌فرستیم که یک بار و تا ۳۰ دقیقه کار می‌کند.',
  resetButton: 'پیوند را برایم بفرست',
  resetSent: 'اگر این ایمیل از آنِ حسابی باشد، پیوند در راه است. صندوق نامه‌تان را ببینید.',
  resetNoMail:
    'این سرور نمی‌تواند ایمیل بفرستد، پس پیوندی فرستاده نشد. از کسی که Meeting Memory را راه می‌اندازد پیوند ورود تازه بخواهید.',
  chooseNewPasswordTitle: 'گذرواژهٔ تازه برگزینید',
  backToSignIn: 'بازگشت به ورود',
  homeTitle: 'خوش آمدید',
  homeHello: 'با نام {name} وارد شده‌اید.',
  homeIntro:
    'جلسه‌ها، خلاصه‌ها و مجموعه‌هایتان را ابزارهایتان و برنامه به اینجا می‌فرستند. توکن‌های API و نشست‌هایتان را از پایین مدیریت کنید.',
  tokensTitle: 'توکن‌های API',
  tokensIntro:
    'توکن به ابزارها و دستیارهای خودتان اجازه می‌دهد از API برای حسابتان استفاده کنند. به هر ابزار توکن جداگانه با کمترین دسترسی بدهید.',
  developerMode: 'حالت توسعه‌دهنده',
  developerModeOn: 'حالت توسعه‌دهنده روشن است: توکن‌هایتان کار می‌کنند.',
  developerModeOff:
    'حالت توسعه‌دهنده خاموش است: تا روشنش نکنید هر توکن پاسخ 403 DEVELOPER_MODE_OFF می‌گیرد. هیچ توکنی باطل نمی‌شود.',
  turnOn: 'روشن کردن حالت توسعه‌دهنده',
  turnOff: 'خاموش کردن حالت توسعه‌دهنده',
  newToken: 'توکن تازه',
  tokenName: 'نام',
  scopes: 'دسترسی‌ها',
  groupMeetings: 'جلسه‌ها',
  groupSeries: 'مجموعه‌ها',
  groupAccount: 'حساب',
  scopeUnavailableNote: 'برای حساب شما خاموش است',
  expiry: 'انقضا',
  expiry30: 'تا ۳۰ روز',
  expiry90: 'تا ۹۰ روز',
  expiry365: 'تا ۳۶۵ روز',
  expiryNever: 'هرگز',
  dailyCap: 'سقف دقیقهٔ روزانه (اختیاری)',
  dailyCapHint: 'عددی درست از ۱ تا ۱۰۰٬۰۰۰؛ خالی یعنی بی‌سقف.',
  createToken: 'ساختن توکن',
  tokenCreated: 'توکن تازهٔ شما. همین حالا رونوشت بگیرید: فقط یک بار نشان داده می‌شود.',
  copy: 'رونوشت',
  copied: 'رونوشت شد',
  yourTokens: 'توکن‌های شما',
  noTokens: 'توکن فعالی ندارید.',
  created: 'ساخته‌شده',
  cap: 'سقف روزانه',
  noCap: 'ندارد',
  never: 'هرگز',
  revoke: 'باطل کردن',
  revoked: 'توکن باطل شد و همین حالا از کار می‌افتد.',
  revokeSure: 'مطمئنم',
  revokeNotConfirmed: 'برای باطل کردن توکن، «مطمئنم» را کنار دکمهٔ باطل کردن تیک بزنید.',
  revokeNotFound: 'این توکن پیدا نشد؛ شاید پیش‌تر باطل شده باشد. چیزی تغییر نکرد.',
  errorNeedScope: 'دست‌کم یک دسترسی برگزینید.',
  errorName: 'نامی از ۱ تا ۱۰۰ نویسه به توکن بدهید.',
  errorCap: 'سقف روزانه باید عددی درست از ۱ تا ۱۰۰٬۰۰۰ باشد.',
  errorCapNoSpend:
    'سقف روزانه فقط برای توکنی است که می‌تواند دقیقه خرج کند (recordings:write، recordings:query یا series:query). آن را خالی بگذارید یا یکی از این‌ها را برگزینید.',
  errorScopeUnavailable: 'یکی از دسترسی‌هایی که برگزیدید برای حساب شما خاموش است.',
  errorTokenLimit: 'هم‌اکنون ۱۰ توکن فعال دارید. نخست یکی را باطل کنید.',
  errorGeneric: 'انجام نشد. فرم را بررسی کنید و دوباره بفرستید.',
  notSavedBecause: 'ذخیره نشد: {message}',
  sessionsTitle: 'نشست‌ها',
  sessionsIntro: 'جاهایی که وارد شده‌اید.',
  device: 'دستگاه',
  lastSeen: 'آخرین بازدید',
  thisSession: 'همین مرورگر',
  signOutOthers: 'خروج از همهٔ نشست‌های دیگر',
  signedOutOthers: 'همهٔ نشست‌های دیگر بسته شدند.',
  meetingTitle: 'جلسه',
  untitled: 'جلسهٔ بی‌عنوان',
  status: 'وضعیت',
  namingTitle: 'نام‌گذاری گویندگان',
  namingMovedOn: 'این جلسه جلوتر رفته است؛ نام‌گذاری بسته است.',
  namingSoon: 'نام‌گذاری گویندگان در مرورگر با نسخهٔ بعدی برنامه می‌آید.',
  seriesTitle: 'مجموعه',
  meetingCount: 'جلسه‌های تمام‌شده',
  notFoundTitle: 'پیدا نشد',
  notFound: 'اینجا چیزی نیست، یا دیدنش از آنِ شما نیست.',
  statusQUEUED: 'در صف',
  statusTRANSCRIBING: 'در حال رونویسی',
  statusNAMING: 'در انتظار نام گویندگان',
  statusGENERATING: 'در حال نوشتن خلاصه',
  statusREADY: 'آماده',
  statusFAILED: 'ناموفق',
  forbiddenTitle: 'مجاز نیست',
  navWallet: 'کیف پول',
  navSettings: 'تنظیمات',
  navKeyterms: 'واژگان',
  navMemory: 'حافظه',
  navProfile: 'نمایه',
  save: 'ذخیره',
  saved: 'ذخیره شد.',
  walletTitle: 'کیف پول',
  balance: 'موجودی',
  minutes: '{n} دقیقه',
  heldMinutes: 'نگه‌داشته برای جلسه‌های در جریان',
  recentEntries: 'ردیف‌های اخیر',
  noEntries: 'هنوز چیزی نیست.',
  entryKind: 'چه',
  entryMinutes: 'دقیقه',
  entryWhen: 'کی',
  kind_credit: 'افزایش اعتبار',
  kind_hold: 'نگه‌داشت برای جلسه',
  kind_capture: 'هزینهٔ جلسه',
  kind_release: 'آزاد شدن نگه‌داشت',
  kind_ask_charge: 'پرسش',
  credit_trial: 'دقیقه‌های آزمایشی',
  holdsNote: 'دقیقه‌های درون پرانتز تا پایان جلسه کنار گذاشته می‌شوند؛ تنها هزینهٔ جلسه آن‌ها را خرج می‌کند.',
  credit_grant: 'دقیقه‌های هدیه',
  credit_purchase: 'دقیقه‌های خریده‌شده',
  buyTitle: 'خرید دقیقه',
  buyPack: 'بسته',
  buyButton: 'خرید',
  buyHint: 'دقیقه‌ها همان دم به موجودی افزوده می‌شوند.',
  buyNone: 'دقیقه‌ها را گردانندگان این سرویس می‌افزایند؛ برای دقیقهٔ بیشتر از آن‌ها بخواهید.',
  bought: '{n} دقیقه افزوده شد.',
  settingsTitle: 'تنظیمات',
  namingMode: 'نام‌گذاری گویندگان',
  namingAUTO: 'بپرس، ولی منتظر نمان',
  namingFORCE_ON: 'بپرس و منتظر نام‌ها بمان',
  namingFORCE_OFF: 'نام‌ها را حدس بزن، هرگز نپرس',
  summaryEmail: 'هر خلاصهٔ تازه را با PDF برایم ایمیل کن',
  deleteAudio: 'صدای هر جلسه پس از آماده شدن خلاصه‌اش پاک شود',
  deleteAudioHint:
    'رونوشت، خلاصه، جست‌وجو و پرسش می‌مانند؛ صدا دیگر پخش، هم‌رسانی یا دوباره رونویسی نمی‌شود. جلسه‌هایی که پیش‌تر آماده شده‌اند صدایشان را نگه می‌دارند.',
  memoryLearning: 'از جلسه‌های تازه یادداشت حافظه بیاموز',
  appLanguage: 'زبان برنامه',
  keytermsTitle: 'واژگان',
  keytermsIntro:
    'واژه‌هایی که رونویسی باید بشناسد: هر سطر یکی، حداکثر ۱۰۰، هر کدام تا ۵ کلمه. جلسه‌هایی که از آن‌ها استفاده کنند ۲۰٪ گران‌ترند.',
  keyterms: 'واژه‌ها',
  memoryTitle: 'حافظه',
  memoryIntro:
    'یادداشت‌های کوتاهی که سرویس دربارهٔ شما نگه می‌دارد تا خلاصه‌ها دقیق‌تر شوند. یادداشتی که ویرایش کنید همان‌گونه می‌ماند.',
  memoryOff: 'حافظه برای حساب شما خاموش است.',
  noNotes: 'هنوز یادداشتی نیست.',
  note: 'یادداشت',
  deleteNote: 'حذف',
  category_ABOUT_YOU: 'دربارهٔ شما',
  category_PEOPLE: 'افراد',
  category_TERMS: 'اصطلاحات',
  profileTitle: 'نمایه',
  displayName: 'نام نمایشی',
  changePassword: 'تغییر گذرواژه',
  currentPassword: 'گذرواژهٔ کنونی',
  emailTitle: 'ایمیل',
  emailNow: 'با {email} وارد می‌شوید و خلاصه‌ها به همین نشانی فرستاده می‌شوند.',
  emailNone: 'این حساب هنوز ایمیلی ندارد.',
  newEmail: 'ایمیل تازه',
  changeEmail: 'تغییر ایمیل',
  emailChanged: 'ایمیلتان عوض شد. از این پس با ایمیل تازه وارد شوید.',
  passwordChanged: 'گذرواژه‌تان عوض شد؛ همهٔ نشست‌های دیگر بسته شدند.',
};

export type Locale = 'en' | 'fa';
export const LOCALES: readonly Locale[] = ['en', 'fa'];
const CATALOGUE: Record<Locale, Messages> = { en, fa };

/** What a page needs to speak: the messages, the direction and the number and date formats. */
export interface Speech {
  locale: Locale;
  dir: 'ltr' | 'rtl';
  t: Messages;
  /** A message with {placeholders} filled. */
  f(key: keyof Messages, values: Record<string, string>): string;
  number(n: number): string;
  date(iso: string): string;
}

/** Speeches made so far, by locale and zone (canonical zones only: a finite set). */
const speeches = new Map<string, Speech>();

/**
 * How the pages speak in `locale`, with times in `zone` (a canonical IANA zone, domain/time-zone.ts;
 * UTC until the viewer's browser has said its own).
 */
export function speechOf(locale: Locale, zone = 'UTC'): Speech {
  const key = `${locale} ${zone}`;
  let speech = speeches.get(key);
  if (!speech) {
    speech = makeSpeech(locale, zone);
    speeches.set(key, speech);
  }
  return speech;
}

function makeSpeech(locale: Locale, zone: string): Speech {
  const t = CATALOGUE[locale];
  // Persian: Persian digits and the Solar Hijri calendar; English: Gregorian with Latin digits.
  const tag = locale === 'fa' ? 'fa-IR-u-ca-persian-nu-arabext' : 'en-GB';
  const numbers = new Intl.NumberFormat(tag);
  // A 24-hour clock, the zone named ("29 Nov 2026, 03:04 UTC", "29 Nov 2026, 06:34 GMT+3:30").
  const dates = new Intl.DateTimeFormat(tag, {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
    timeZoneName: 'short',
    timeZone: zone,
  });
  return {
    locale,
    dir: locale === 'fa' ? 'rtl' : 'ltr',
    t,
    f: (key, values) => fillText(t[key], values),
    number: (n) => numbers.format(n),
    date: (iso) => dates.format(new Date(iso)),
  };
}

export function isLocale(v: unknown): v is Locale {
  return v === 'en' || v === 'fa';
}

/** The message of a key made at run time (a status, a ledger kind), or undefined when there is none. */
export function messageOf(t: Messages, key: string): string | undefined {
  const all: Record<string, string> = t;
  return Object.hasOwn(all, key) ? all[key] : undefined;
}

/**
 * A text with its {placeholders} filled. In English a count of one takes the singular ("1 minute",
 * not "1 minutes"); a Persian noun after a number is singular already. client/upload.js fills its
 * texts the same way.
 */
export function fillText(text: string, values: Record<string, string>): string {
  return text
    .replace(/\{(\w+)\}/g, (m, k: string) => values[k] ?? m)
    .replace(/(^|[^\w.,])1 (minute|meeting)s\b/g, (_m, before: string, noun: string) => `${before}1 ${noun}`);
}
