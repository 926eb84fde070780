import { MeetingMemory } from '@mm/sdk';
import type { CliConfig } from './config';
import { loadCredentials } from './credentials';
import { EXIT } from './domain/exit-codes';
import { CliError, output, type Out } from './output';

export interface Ctx {
  cfg: CliConfig;
  out: Out;
  /** The client of the saved login or MM_URL/MM_TOKEN; throws a usage error when there is none. */
  client(): Promise<MeetingMemory>;
}

export function context(cfg: CliConfig, json: boolean): Ctx {
  return {
    cfg,
    out: output(json),
    client: async () => {
      const creds = await loadCredentials(cfg);
      if (!creds)
        throw new CliError(
          'NOT_LOGGED_IN',
          'no login: run `mm login --url URL` or set MM_URL and MM_TOKEN',
          EXIT.USAGE,
        );
      return new MeetingMemory({ url: creds.url, token: creds.token });
    },
  };
}
