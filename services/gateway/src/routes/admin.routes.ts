import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { timingSafeEqual, createHash } from 'node:crypto';
import type { NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { ApiError, createAjv, describeSchemaError, jsonBody, parseBearer, writeNotFound } from '@mm/http';
import { request, RemoteError, type Bus } from '@mm/bus';
import { BUS } from '@mm/contract';
import * as schemas from './admin.schemas';
import type { AccessService } from '../services/access.service';
import type { PrincipalSigner } from '../services/principals';
import { forward } from '../services/proxy';
import { deadLettersRouter } from './dead-letters.routes';
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

const ajv = createAjv();
const compiled = Object.fromEntries(Object.entries(schemas).map(([k, s]) => [k, ajv.compile(s)]));

function body<T>(schema: keyof typeof schemas, req: Request): T {
  const fn = compiled[schema];
  const data = req.body ?? {};
  if (!fn(data)) throw new ApiError('VALIDATION', describeSchemaError('', fn.errors![0]));
  return data as T;
}

/** The operator's principal account: the admin API acting on a meeting without naming its account. */
const OPERATOR = '*';

const digest = (s: string) => createHash('sha256').update(s).digest();

/** The admin API (ARCHITECTURE.md section 7): the app's and the operator's side. 404 while no key is set. */
export function adminRouter(deps: AdminDeps): Router {
  const router = express.Router();
  /** `passOn`: a middleware that lets the request go on unless it answered. */
  const wrap = (fn: (req: Request, res: Response) => Promise<void>, passOn = false) => (req: Request, res: Response, next: NextFunction) =>
    fn(req, res).then(() => (passOn && !res.headersSent ? next() : undefined), next);

  const limited = (retryAfter: number) => new ApiError('RATE_LIMITED', 'Too many admin requests; wait Retry-After seconds.', undefined, { 'Retry-After': String(retryAfter) });
  router.use(wrap(async (req, res) => {
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
  }, true));
  router.use(jsonBody('1mb'));

  router.post('/accounts', wrap(async (req, res) => {
    const account = await deps.access.createAccount(body('createAccountBody', req));
    res.status(201).json({ account });
  }));
  router.get('/accounts/:id', wrap(async (req, res) => {
    res.json({ account: await deps.access.getAccount(String(req.params.id)) });
  }));
  router.patch('/accounts/:id', wrap(async (req, res) => {
    res.json({ account: await deps.access.updateAccount(String(req.params.id), body('patchAccountBody', req)) });
  }));
  router.post('/accounts/:id/minutes', wrap(async (req, res) => {
    const { minutes } = body<{ minutes: number }>('minutesBody', req);
    res.json(await deps.access.buyMinutes(String(req.params.id), minutes, req.headers['idempotency-key'] as string | undefined));
  }));
  router.post('/accounts/:id/tokens', wrap(async (req, res) => {
    res.status(201).json(await deps.access.createToken(String(req.params.id), body('createTokenBody', req)));
  }));
  router.post('/accounts/:id/invites', wrap(async (req, res) => {
    const { email } = body<{ email?: string }>('inviteBody', req);
    res.status(201).json({ invite: await deps.invites.createInvite(String(req.params.id), email) });
  }));
  router.delete('/tokens/:id', wrap(async (req, res) => {
    res.json(await deps.access.revokeToken(String(req.params.id)));
  }));
  // Meeting routes: the app's side, forwarded to recordings with an app principal.
  const toRecordings = (pathOf: (req: Request) => string, accountOf: (req: Request) => Promise<string>) =>
    wrap(async (req, res) => {
      const accountId = await accountOf(req);
      const account = accountId === OPERATOR ? null : await deps.access.getAccount(accountId);
      const principal = await deps.signer.forApp({
        accountId,
        displayName: account?.displayName ?? null,
        features: account?.features ?? { series: true, ask: true, videoUpload: true, memory: true },
      });
      const json = req.is('application/json') ? Buffer.from(JSON.stringify(req.body ?? {})) : undefined;
      forward(req, res, {
        target: deps.serviceUrls.recordings,
        path: pathOf(req),
        principal,
        reqId: res.locals.reqId as string,
        clientIp: req.ip ?? '',
        logger: deps.logger,
        body: json,
      });
    });
  const operator = async () => OPERATOR;
  const id = (req: Request) => encodeURIComponent(String(req.params.id));
  router.post('/accounts/:id/recordings', toRecordings(() => '/internal/admin/recordings', async (req) => String(req.params.id)));
  router.delete('/recordings/:id', toRecordings((req) => `/internal/admin/recordings/${id(req)}`, operator));
  router.post('/recordings/:id/restore', toRecordings((req) => `/internal/admin/recordings/${id(req)}/restore`, operator));
  router.patch('/recordings/:id', toRecordings((req) => `/internal/admin/recordings/${id(req)}`, operator));
  router.put('/recordings/:id/speakers', toRecordings((req) => `/internal/admin/recordings/${id(req)}/speakers`, operator));
  router.patch('/recordings/:id/transcript/segments/:index', toRecordings((req) => `/internal/admin/recordings/${id(req)}/transcript/segments/${encodeURIComponent(String(req.params.index))}`, operator));
  router.post('/recordings/:id/regenerate', toRecordings((req) => `/internal/admin/recordings/${id(req)}/regenerate`, operator));
  router.post('/recordings/:id/recheck', toRecordings((req) => `/internal/admin/recordings/${id(req)}/recheck`, operator));

  router.use('/dead-letters', deadLettersRouter(deps.bus, deps.db, deps.addresses));

  router.put('/flags', wrap(async (req, res) => {
    const { tokensDisabled } = body<{ tokensDisabled: boolean }>('flagsBody', req);
    res.json({ flags: await deps.access.setFlags(tokensDisabled) });
  }));
  // Series members (an accepted invite in the app): the account must exist; the series service owns membership.
  router.post('/series/:id/members', wrap(async (req, res) => {
    const { accountId } = body<{ accountId: string }>('seriesMemberBody', req);
    await deps.access.getAccount(accountId);
    try {
      res.json(await request(deps.nc, BUS.seriesMembersAdd, { seriesId: String(req.params.id), accountId }));
    } catch (err) {
      if (err instanceof RemoteError && (err.code === 'NOT_FOUND' || err.code === 'VALIDATION')) throw new ApiError(err.code, err.message);
      throw new ApiError('INTERNAL', 'The series service did not answer; retry.');
    }
  }));
  return router;
}
