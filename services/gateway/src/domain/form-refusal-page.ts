/** Why the app door refused a state-changing request before it reached the app. */
export type FormRefusal = 'stale' | 'origin' | 'unreadable';

const WORDS = {
  en: {
    title: 'This form was not sent',
    stale:
      'The form is out of date: its security token does not match your session (signed out or in again in another tab?).',
    origin: 'This request did not come from the app.',
    unreadable: 'The form could not be read.',
    next: 'Go back, reload the page and try again.',
    home: 'Back to the app',
  },
  fa: {
    title: 'این فرم فرستاده نشد',
    stale: 'فرم کهنه شده است: نشانهٔ امنیتی آن با نشست شما نمی‌خواند (در زبانهٔ دیگری بیرون یا دوباره وارد شده‌اید؟).',
    origin: 'این درخواست از خود برنامه نیامده است.',
    unreadable: 'فرم خوانده نشد.',
    next: 'برگردید، صفحه را دوباره بار کنید و دوباره امتحان کنید.',
    home: 'بازگشت به برنامه',
  },
} as const;

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * The page a browser gets when the app door refuses its form (403): in the app's look (its
 * stylesheet), in the browser's language, saying why and what to do, with a way back. No script.
 */
export function formRefusalPage(why: FormRefusal, locale: 'en' | 'fa', appPath: string): string {
  const w = WORDS[locale];
  // '' when the app is at the root: links then start at '/' (never '//', another host).
  const app = escapeHtml(appPath);
  return [
    '<!doctype html>',
    `<html lang="${locale}" dir="${locale === 'fa' ? 'rtl' : 'ltr'}">`,
    `<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(w.title)} · Meeting Memory</title>`,
    `<link rel="stylesheet" href="${app}/assets/app.css"></head>`,
    `<body><main id="main"><h1>${escapeHtml(w.title)}</h1>`,
    `<p role="alert">${escapeHtml(w[why])}</p><p>${escapeHtml(w.next)}</p>`,
    `<p><a href="${app}/">${escapeHtml(w.home)}</a></p></main></body></html>`,
  ].join('\n');
}
