/**
 * The same page in another language, for a visitor with no account setting: the path and query of
 * `here` (a path with its query, as the page was asked for) with `lang` set to `locale`, every
 * other parameter kept in its order.
 */
export function withLanguage(here: string, locale: string): string {
  const url = new URL(here, 'http://app.invalid');
  url.searchParams.set('lang', locale);
  return `${url.pathname}${url.search}`;
}
