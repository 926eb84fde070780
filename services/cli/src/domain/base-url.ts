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
