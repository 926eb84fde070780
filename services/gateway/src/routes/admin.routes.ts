import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import {
  ANSWERED,
  ApiError,
  jsonBody,
  mountOperation,
  parseBearer,
  writeNotFound,
  type Answered,
  type OperationContext,
} from '@mm/http';
import { request, RemoteError, type Bus } from '@mm/bus';
import { BUS, forwardOf, pathOf, type OperationId } from '@mm/contract';
import type { AccessService } from '../services/access.service';
import type { PrincipalSigner } from '../services/principals';
import { forward } from '../services/proxy';
import { mountDeadLetters } from './dead-letters.routes';
import type { AdminLimit } from '../services/admin-limit';
import type { ClientAddresses } from '../services/client-addresses';
import type { SignInService } from '../services/sign-in.service';

export interface AdminDeps {
  adminApiKey: string | null;
  access: AccessService;
  nc: NatsConnection;
  /** The bus itself (JetStream), for the dead letters. */
  bus: Bus;
  /** The access schema: dead-letter replays are recorded there. */
  db: Kysely<Database>;
  redis: Redis;
  logger: Logger;
  signer: PrincipalSigner;
  serviceUrls: Record<string, string>;
  limit: AdminLimit;
  addresses: ClientAddresses;
  /** Makes invite links (the app's sign-in). */
  invites: Pick<SignInService, 'createInvite'>;
}

/** The operator's principal account: the admin API acting on a meeting without naming its account. */
const OPERATOR = '*';

const digest = (s: string) => createHash('sha256').update(s).digest();

/**
 * The admin API (ARCHITECTURE.md section 7): the app's and the operator's side. 404 while no key
 * is set. Every route is an operation of the contract's admin table, mounted by its operationId.
 */
export function adminRouter(deps: AdminDeps): Router {
  const router = express.Router();
  const limited = (retryAfter: number) =>
    new ApiError('RATE_LIMITED', 'Too many admin requests; wait Retry-After seconds.', undefined, {
      'Retry-After': String(retryAfter),
    });
  router.use((req: Request, res: Response, next: NextFunction) => {
    (async () => {
      if (!deps.adminApiKey) return writeNotFound(res);
      const address = deps.addresses.budgetKey(deps.addresses.of(req));
      // The key first: the right one is never counted with wrong ones (admin-limit.ts).
      const key = parseBearer(req.headers.authorization);
      if (!key || !timingSafeEqual(digest(key), digest(deps.adminApiKey))) {
        const retryAfter = await deps.limit.wrongKey(address);
        if (retryAfter !== null) throw limited(retryAfter);
        throw new ApiError('UNAUTHORIZED', 'Send Authorization: Bearer <ADMIN_API_KEY>.');
      }
      const retryAfter = await deps.limit.admitKeyHolder(address);
      if (retryAfter !== null) throw limited(retryAfter);
      res.locals.route = `admin ${req.method} ${req.path}`;
      next();
    })().catch(next);
  });
  router.use(jsonBody('1mb'));

  const { access } = deps;
  mountOperation(router, 'adminCreateAccount', async ({ body }) => ({ account: await access.createAccount(body) }));
  mountOperation(router, 'adminGetAccount', async ({ params }) => ({ account: await access.getAccount(params.id) }));
  mountOperation(router, 'adminUpdateAccount', async ({ params, body }) => ({
    account: await access.updateAccount(params.id, body),
  }));
  mountOperation(router, 'adminBuyMinutes', async ({ params, body, headers }) =>
    access.buyMinutes(params.id, body.minutes, headers['idempotency-key']),
  );
  mountOperation(router, 'adminCreateToken', async ({ params, body }) => access.createToken(params.id, body));
  mountOperation(router, 'adminCreateInvite', async ({ params, body }) => ({
    invite: await deps.invites.createInvite(params.id, body.email),
  }));
  mountOperation(router, 'adminRevokeToken', async ({ params }) => access.revokeToken(params.id));
  mountOperation(router, 'adminSetFlags', async ({ body }) => ({ flags: await access.setFlags(body.tokensDisabled) }));
  // Series members (an accepted invite in the app): the account must exist; the series service owns membership.
  mountOperation(router, 'adminAddSeriesMember', async ({ params, body }) => {
    await access.getAccount(body.accountId);
    try {
      return await request(deps.nc, BUS.seriesMembersAdd, { seriesId: params.id, accountId: body.accountId });
    } catch (err) {
      if (err instanceof RemoteError && (err.code === 'NOT_FOUND' || err.code === 'VALIDATION'))
        throw new ApiError(err.code, err.message);
      throw new ApiError('INTERNAL', 'The series service did not answer; retry.');
    }
  });

  // Meeting routes: the app's side, forwarded to recordings (at the table's `forward` path) with an app principal.
  const toRecordings = (
    operationId: OperationId,
    params: Record<string, string>,
    accountId: string,
    { req, res }: OperationContext,
  ): Promise<Answered> =>
    (async (): Promise<Answered> => {
      const account = accountId === OPERATOR ? null : await access.getAccount(accountId);
      const principal = await deps.signer.forApp({
        accountId,
        displayName: account?.displayName ?? null,
        features: account?.features ?? { series: true, ask: true, videoUpload: true, memory: true },
      });
      const to = forwardOf(operationId);
      if (!to) throw new Error(`${operationId} forwards nowhere`);
      const json = req.is('application/json') ? Buffer.from(JSON.stringify(req.body ?? {})) : undefined;
      forward(req, res, {
        target: deps.serviceUrls.recordings,
        path: pathOf(to.path, params),
        principal,
        reqId: res.locals.reqId as string,
        clientIp: req.ip ?? '',
        logger: deps.logger,
        body: json,
      });
      return ANSWERED;
    })();
  mountOperation(router, 'adminSubmitRecording', async ({ params }, ctx) =>
    toRecordings('adminSubmitRecording', {}, params.id, ctx),
  );
  mountOperation(router, 'adminDeleteRecording', async ({ params }, ctx) =>
    toRecordings('adminDeleteRecording', params, OPERATOR, ctx),
  );
  mountOperation(router, 'adminRestoreRecording', async ({ params }, ctx) =>
    toRecordings('adminRestoreRecording', params, OPERATOR, ctx),
  );
  mountOperation(router, 'adminUpdateRecording', async ({ params }, ctx) =>
    toRecordings('adminUpdateRecording', params, OPERATOR, ctx),
  );
  mountOperation(router, 'adminNameSpeakers', async ({ params }, ctx) =>
    toRecordings('adminNameSpeakers', params, OPERATOR, ctx),
  );
  mountOperation(router, 'adminEditSegment', async ({ params }, ctx) =>
    toRecordings('adminEditSegment', params, OPERATOR, ctx),
  );
  mountOperation(router, 'adminRegenerateDigest', async ({ params }, ctx) =>
    toRecordings('adminRegenerateDigest', params, OPERATOR, ctx),
  );
  mountOperation(router, 'adminRecheckRecording', async ({ params }, ctx) =>
    toRecordings('adminRecheckRecording', params, OPERATOR, ctx),
  );

  mountDeadLetters(router, deps.bus, deps.db, deps.addresses);
  // The key holder is told in the admin API's envelope that a path or method is not one of its routes.
  router.use((req: Request, _res: Response, next: NextFunction) =>
    next(new ApiError('NOT_FOUND', `No admin route ${req.method} ${req.path}.`)),
  );
  return router;
}
