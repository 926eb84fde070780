import { createLogger, serve, runMain, PrincipalVerifier, principalKey, type Running } from '@mm/http';
import { loadConfig, type WebConfig } from './config';
import { createApp } from './app';
import { buildAssets } from './assets';

/** Starts the app: builds its script and stylesheet, listens. It keeps no data of its own. */
export async function startWeb(config: WebConfig): Promise<Running> {
  const logger = createLogger('web', config.logLevel, config.logBufferBytes);
  const assets = await buildAssets();
  const app = createApp({ config, verifier: new PrincipalVerifier(principalKey(config.internalJwtSecret)), assets, logger, ready: async () => true });
  return serve(app, config, logger, async () => undefined);
}

if (require.main === module) {
  // Every image answers the migration step (the launcher and the migrate initContainers run it);
  // the app keeps no data, so it has nothing to migrate.
  if (process.argv[2] === 'migrate') process.stdout.write('web migrate: the app keeps no data of its own: nothing to migrate\n');
  else runMain('web', () => startWeb(loadConfig()));
}
