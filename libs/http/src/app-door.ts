/**
 * What the gateway tells the app (services/web) about a browser's request, beside the principal.
 * Every incoming x-mm-* header is dropped by the gateway, so a browser can set none of these.
 */

/** The signed-in session's CSRF token, for the app to put in its forms. */
export const APP_CSRF_HEADER = 'x-mm-csrf';
/**
 * On an invite or reset page: `usable` when its link can still set a password, `needs-email` when it
 * can and the account has no email yet (an invite the operator made without one: the form asks
 * for the email the person will sign in with), else `invalid`.
 */
export const APP_LINK_HEADER = 'x-mm-link';
export type AppLinkState = 'usable' | 'needs-email' | 'invalid';
/** The form field (urlencoded forms) that carries the CSRF token; scripts send the `x-csrf-token` header. */
export const CSRF_FIELD = '_csrf';
export const CSRF_REQUEST_HEADER = 'x-csrf-token';
/**
 * The viewer's time zone (an IANA name): the browser's script keeps it in this cookie, and the
 * gateway passes the cookie's value on in the header (the app sees no cookie of the browser's).
 */
export const APP_TIME_ZONE_COOKIE = 'mm_tz';
export const APP_TIME_ZONE_HEADER = 'x-mm-time-zone';

/**
 * The browser's first choice among the app's languages (Accept-Language, in the order it lists
 * them), else English: a signed-out page's language, whether the app or the app door (a refused
 * form) answers it.
 */
export function browserLocale(acceptLanguage: string | undefined): 'en' | 'fa' {
  const first = String(acceptLanguage ?? '')
    .toLowerCase()
    .split(',')
    .map((x) => x.trim().slice(0, 2))
    .find((x) => x === 'en' || x === 'fa');
  return first === 'fa' ? 'fa' : 'en';
}
