/**
 * What is wrong with a base URL given to the command line, or null when it can be used. Pure.
 * A user name or password, a query or a fragment is refused: the token is the only credential the
 * command line sends, and the API root is a plain path. The password is never repeated.
 */
export function baseUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `is not a URL: "${redactUrl(url)}"`;
  }
  const shown = `"${redactUrl(url)}"`;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `is not an http or https URL: ${shown}`;
  if (parsed.username || parsed.password) return `must not hold a user name or password: ${shown}`;
  if (parsed.search) return `must not hold a query string: ${shown}`;
  if (parsed.hash) return `must not hold a fragment: ${shown}`;
  return null;
}

/** The URL with any password in it replaced by `***` (also when it does not parse). */
export function redactUrl(url: string): string {
  return url.replace(/^([^/?#]*\/\/[^/?#@:]*):[^/?#@]*@/, '$1:***@');
}

/** True when the URL points into the admin API (`…/admin/…`), which is not the public API. */
export function isAdminUrl(url: string): boolean {
  return new URL(url).pathname.split('/').includes('admin');
}

/** Whether two base URLs name the same API root (`http://h:8080` and `http://h:8080/api/v1/` do). */
export function sameApiRoot(a: string, b: string): boolean {
  return apiRootOf(a) === apiRootOf(b);
}

function apiRootOf(url: string): string {
  let normal: string;
  try {
    normal = new URL(url).href;
  } catch {
    normal = url;
  }
  return normal.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
}

/** How to give the URL, said after a URL problem. */
export const BASE_URL_HINT =
  "give the gateway's address (e.g. http://127.0.0.1:8080) or its API root ending in /api/v1";
