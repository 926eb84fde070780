/** A form sent to the app's door as a browser sends it, the redirect left unfollowed (plain HTTP tests). */
export function postForm(
  baseUrl: string,
  path: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form),
  });
}

/** The session cookie an answer sets, or null. */
export const sessionCookieOf = (res: Response): string | null =>
  /mm_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1] ?? null;
