/**
 * The service's base URL as a client takes it (MM_URL, `mm login --url`): an http(s) address and
 * a path, nothing else. A user name or password, a query or a fragment would ride on every request
 * beside the token (fetch refuses credentials outright), so they are refused; the message never
 * repeats a secret. Pure.
 */

/** What is wrong with the URL (to follow its source's name: `MM_URL is not a URL: …`), or null. */
export function serviceUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `is not a URL: "${redactUrl(url)}"`;
  }
  const shown = `"${redactUrl(url)}"`;
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || parsed.hostname === '')
    return `is not an http or https URL: ${shown}`;
  if (parsed.username || parsed.password)
    return `must not hold a user name or password (the token is the only credential): ${shown}`;
  if (parsed.search) return `must not hold a query string: ${shown}`;
  if (parsed.hash) return `must not hold a fragment: ${shown}`;
  return null;
}

/**
 * The URL as it may be shown: its user part (a password, or a token put there) as `***`, the
 * content of a query and a fragment as `…` (they may carry a secret too), parseable or not.
 */
export function redactUrl(url: string): string {
  const scheme = url.indexOf('://');
  const start = scheme < 0 ? 0 : scheme + 3;
  const end = url.slice(start).search(/[/?#]/);
  const authority = end < 0 ? url.slice(start) : url.slice(start, start + end);
  const at = authority.lastIndexOf('@');
  const hidden = at >= 0 ? `${url.slice(0, start)}***${url.slice(start + at)}` : url;
  return hidden.replace(/\?[^#]+/, '?…').replace(/#.+$/, '#…');
}

/**
 * Which of the gateway's other surfaces a URL points into, if any: the admin API (`…/admin/…`) or
 * the app's pages (`/app/…`, which take no API token). Neither is the public API.
 */
export function otherSurfaceOf(url: string): 'the admin API' | 'the app' | null {
  const segments = new URL(url).pathname.split('/');
  if (segments.includes('admin')) return 'the admin API';
  return segments[1] === 'app' ? 'the app' : null;
}
