import { MeetingMemory, otherSurfaceOf, redactUrl, serviceUrlProblem } from '@mm/sdk';
import type { CliConfig } from './config';
import { loadCredentials } from './credentials';
import { BASE_URL_HINT } from './domain/base-url';
import { EXIT } from './domain/exit-codes';
import { CliError, output, type Out } from './output';

export interface Ctx {
  cfg: CliConfig;
  out: Out;
  /** The client of the saved login or MM_URL/MM_TOKEN; throws a usage error when there is none. */
  client(): Promise<MeetingMemory>;
  /** A client of this URL and token; `urlFrom` names the URL's source when it is not a URL. */
  clientFor(url: string, token: string, urlFrom: string): MeetingMemory;
  /** The API root of the last client made: errors name it. */
  apiRoot?: string;
}

export function context(cfg: CliConfig, json: boolean): Ctx {
  const ctx: Ctx = {
    cfg,
    out: output(json),
    client: async () => {
      // A malformed MM_URL is said as such first, not as a saved token that belongs elsewhere.
      if (cfg.url) checkUrl(cfg.url, 'MM_URL');
      const creds = await loadCredentials(cfg);
      if (!creds)
        throw new CliError(
          'NOT_LOGGED_IN',
          'no login: run `mm login --url URL` or set MM_URL and MM_TOKEN',
          EXIT.USAGE,
        );
      return ctx.clientFor(creds.url, creds.token, creds.urlFrom);
    },
    clientFor: (url, token, urlFrom) => {
      checkUrl(url, urlFrom);
      const mm = new MeetingMemory({ url, token });
      ctx.apiRoot = mm.root;
      return mm;
    },
  };
  return ctx;
}

/**
 * A usage error naming the URL's source (MM_URL, --url, the login file) when the URL cannot be
 * used, before any request: CONFIG for a malformed one, NOT_THE_API for the admin API's.
 */
export function checkUrl(url: string, urlFrom: string): void {
  const problem = serviceUrlProblem(url);
  if (problem) throw new CliError('CONFIG', `${urlFrom} ${problem}: ${BASE_URL_HINT}`, EXIT.USAGE);
  const surface = otherSurfaceOf(url);
  if (surface)
    throw new CliError(
      'NOT_THE_API',
      `${urlFrom} ${redactUrl(url)} points into ${surface}, not the Meeting Memory API; ${BASE_URL_HINT}, in MM_URL or mm login --url`,
      EXIT.USAGE,
      { url },
    );
}
