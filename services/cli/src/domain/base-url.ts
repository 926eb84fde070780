/**
 * Which of the gateway's other surfaces the URL points into, if any: the admin API (`…/admin/…`)
 * or the app's pages (`/app/…`, which take no API token). Neither is the public API.
 */
export function otherSurfaceOf(url: string): 'the admin API' | 'the app' | null {
  const segments = new URL(url).pathname.split('/');
  if (segments.includes('admin')) return 'the admin API';
  return segments[1] === 'app' ? 'the app' : null;
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
