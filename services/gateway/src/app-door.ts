import type { Express } from 'express';
import { PrincipalVerifier, principalKey } from '@mm/http';
import type { GatewayDeps } from './deps';
import type { AccessService } from './services/access.service';
import type { PrincipalSigner } from './services/principals';
import { AccessRepository } from './db/access.repository';
import { SignInRepository } from './db/sign-in.repository';
import { AppTokensRepository } from './db/app-tokens.repository';
import { SignInService } from './services/sign-in.service';
import { SignInLimit } from './services/sign-in-limit';
import { appDoorRouter } from './routes/app-door.routes';
import { appInternalRouter } from './routes/app-internal.routes';

/**
 * The app's side of the gateway, built once: sign-in's use cases, the door at /app and the routes
 * the app asks the gateway at /internal/app. `mount` puts both on the gateway's express app.
 */
export function appDoor(deps: GatewayDeps, shared: { access: AccessService; signer: PrincipalSigner }) {
  const { config, logger } = deps;
  const signIn = new SignInService({
    access: new AccessRepository(deps.db),
    repo: new SignInRepository(deps.db),
    limit: new SignInLimit(deps.redis, config.signInLimits, logger),
    hashKey: config.tokenHashKey,
    appUrl: config.appUrl,
    sendMail: deps.sendMail ?? null,
    logger,
  });
  const mount = (app: Express) => {
    app.use(
      new URL(config.appUrl).pathname.replace(/\/$/, '') || '/app',
      appDoorRouter({
        signIn,
        signer: shared.signer,
        appUrl: config.appUrl,
        serviceUrls: config.serviceUrls,
        trustedProxies: config.trustedProxies,
        logger,
      }),
    );
    app.use(
      appInternalRouter({
        access: shared.access,
        signIn,
        tokens: new AppTokensRepository(deps.db),
        verifier: new PrincipalVerifier(principalKey(config.internalJwtSecret)),
      }),
    );
  };
  return { signIn, mount };
}
