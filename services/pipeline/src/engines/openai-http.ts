/** What the OpenAI-compatible engines share: the route's address and a readable error. */

/** The route under a server root; a root given with a trailing /v1 is tolerated. */
export function apiUrl(baseUrl: string, route: string): string {
  return `${baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '')}${route}`;
}

/** The message of an OpenAI-style error body, else the raw text, else the status text. */
export function errorText(text: string, fallback: string): string {
  try {
    const json = JSON.parse(text) as { error?: { message?: string } | string };
    const message = typeof json.error === 'string' ? json.error : json.error?.message;
    if (message) return message.slice(0, 300);
  } catch {
    // not JSON: fall through to the raw text
  }
  return text.slice(0, 300) || fallback;
}
