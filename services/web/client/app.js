// The app's only script (bundled by esbuild, served from /app/assets/app.js; no inline script).
// Pages work without it: it adds the copy button, the live status of a meeting in progress, and
// the player's seek-to-turn and current-turn highlight.
import { followStatus, followPlayer, followList } from './meeting';
import { followUpload } from './upload';

// The viewer's time zone, kept in a cookie the gateway passes on (APP_TIME_ZONE_COOKIE in
// libs/http): the server writes every time in it from the next page on (UTC until then).
try {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const script = document.querySelector('script[src$="/assets/app.js"]');
  const base = script ? new URL(script.src).pathname.replace(/\/assets\/app\.js$/, '') : '/';
  if (zone && !document.cookie.split('; ').includes(`mm_tz=${zone}`))
    // biome-ignore lint/suspicious/noDocumentCookie: the Cookie Store API is not in every browser the app serves
    document.cookie = `mm_tz=${zone}; path=${base || '/'}; max-age=31536000; samesite=lax`;
} catch {
  // No Intl zone or cookies refused: the times stay in UTC, and say so.
}

document.querySelectorAll('button[data-copy]').forEach((button) => {
  const field = document.getElementById(button.getAttribute('data-copy'));
  if (!field || !navigator.clipboard) return;
  button.hidden = false;
  button.addEventListener('click', () => {
    navigator.clipboard.writeText(field.value).then(() => {
      button.textContent = button.getAttribute('data-copied');
    });
  });
});

// A refused sign-in comes back to a fresh form (the gateway never puts the email in the address):
// the email typed is kept in this tab's sessionStorage until the page that says why, then dropped.
document.querySelectorAll('form[data-keep-email]').forEach((form) => {
  const field = form.querySelector('input[name="email"]');
  const key = 'mm-sign-in-email';
  try {
    const kept = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
    if (kept && field && !field.value && document.querySelector('[role="alert"]')) field.value = kept;
    form.addEventListener('submit', () => sessionStorage.setItem(key, field ? field.value : ''));
  } catch {
    // Storage refused (a private mode): the form works as it is.
  }
});

// The answer to a form that made something once (a token, its value shown once): a reload must not
// send the form again and make another. The entry becomes the page's address alone (a reload is a
// GET of the list), and focus goes to the value to copy.
if (document.querySelector('[data-sent-once]')) {
  history.replaceState(null, '', location.href);
  document.querySelector('[data-sent-once] input')?.focus();
}

followStatus(document);
followPlayer(document);
followUpload(document);
followList(document);
