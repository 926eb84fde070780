/** What is wrong with a base URL given to the command line, or null when it can be used. Pure. */
export function baseUrlProblem(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `is not a URL: "${url}"`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return `is not an http or https URL: "${url}"`;
  return null;
}

/** How to give the URL, said after a URL problem. */
export const BASE_URL_HINT =
  "give the gateway's address (e.g. http://127.0.0.1:8080) or its API root ending in /api/v1";
