import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { APP_ONLY_ROUTES, APP_SESSION_COOKIE, CORS_ORIGIN_HEADER, ROUTES, RouteMatcher, apiOrigin, buildOpenApi, rateLimitFields, type ErrorCode, type RouteDef } from '@mm/contract';
import { ApiError, checkUrlEncoding, closeAfterEarlyAnswer, parseBearer, REPLAY_ONLY_HEADER, requestObserver, WALLET_VERSION_HEADER, writeError, writeNotFound, type RequestFacts } from '@mm/http';
import { authenticate, authorize, CHECK_MESSAGES } from '../domain/checks';
import { hashToken, isWellFormedToken } from '../domain/token-value';
import type { ClientAddresses } from '../services/client-addresses';
import type { AccessGate } from '../services/access-gate';
import type { KeptAnswers } from '../services/kept-answers';
import type { PrincipalSigner } from '../services/principals';
import { forward, ReadPipelines, type ForwardOptions } from '../services/proxy';

export interface PublicDeps {
  gate: AccessGate;
  signer: PrincipalSigner;
  /** whoami's answers, given again while the wallet version holds (kept-answers.ts). */
  kept: KeptAnswers;
  tokenHashKey: string;
  publicBaseUrl: string;
  serviceUrls: Record<RouteDef['service'], string>;
  /** Where reads go (pipelined to the owning service; proxy.ts). */
  reads: ReadPipelines;
  addresses: ClientAddresses;
  logger: Logger;
}

type Entry = { appOnly: false; def: RouteDef; reads: NonNullable<ForwardOptions['reads']>; keeps: boolean } | { appOnly: true };

export const API_PREFIX = '/api/v1';

const refusal = (code: ErrorCode, headers?: Record<string, string>) => new ApiError(code, CHECK_MESSAGES[code] ?? code, undefined, headers);

function hasSessionCookie(req: IncomingMessage): boolean {
  const cookie = req.headers.cookie;
  return !!cookie && cookie.split(';').some((c) => c.trim().startsWith(`${APP_SESSION_COOKIE}=`));
}

/**
 * The public API on plain node:http (the gateway's hot path, without express): every request
 * under /api/v1 passes the contract's checks in order, then goes to the owning service with a
 * signed principal. The route table drives all of it.
 */
export function publicHandler(deps: PublicDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const matcher = new RouteMatcher<Entry>([
    // Reads of the read class are quick for the service (a row, a keyset page, one meeting's
    // bundle): they may queue behind each other on a pipelined connection (a slow client holds
    // none of them: proxy.ts); searches and price quotes go alone. Decided once per route.
    // whoami's answers may be kept and given again (kept-answers.ts): the most frequent read of
    // every agent, whose answer changes only with the token (its access state) and the wallet.
    ...ROUTES.map((def) => ({
      method: def.method,
      path: def.path,
      route: { appOnly: false as const, def, reads: { pipelines: deps.reads, pipelined: def.rateClass === 'read' }, keeps: def.operationId === 'whoami' && deps.kept.enabled },
    })),
    ...APP_ONLY_ROUTES.map((r) => ({ method: r.method, path: r.path, route: { appOnly: true as const } })),
  ]);
  const openapi = JSON.stringify(buildOpenApi({ serverUrl: `${deps.publicBaseUrl}${API_PREFIX}` }));
  // CORS: only pages of the service's own origin may read an answer; no preflight is answered.
  const corsOrigin = apiOrigin(`${deps.publicBaseUrl}${API_PREFIX}`);
  const observe = requestObserver('gateway', deps.logger);

  const handle = async (req: IncomingMessage, res: ServerResponse, facts: RequestFacts): Promise<void> => {
    res.setHeader(CORS_ORIGIN_HEADER, corsOrigin);
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = (q === -1 ? url : url.slice(0, q)).slice(API_PREFIX.length) || '/';
    if (path === '/openapi.json' && req.method === 'GET') {
      facts.route = 'openapi';
      res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
      res.end(openapi);
      return;
    }
    const found = matcher.match(req.method ?? 'GET', path);
    if (!found || 'methodMismatch' in found) {
      closeAfterEarlyAnswer(req, res);
      return writeNotFound(res);
    }
    const entry = found.route;
    // Read for every request, so an X-Forwarded-For no proxy setting lets us believe is noticed.
    const clientIp = deps.addresses.of(req);
    facts.route = entry.appOnly ? 'app-only' : entry.def.operationId;
    const auth = req.headers.authorization;
    const value = parseBearer(auth);
    if (!value) {
      if (!auth && !entry.appOnly && entry.def.operationId === 'whoami' && hasSessionCookie(req)) throw refusal('TOKEN_REQUIRED');
      throw refusal('UNAUTHORIZED');
    }
    if (entry.appOnly) throw refusal('TOKEN_NOT_ACCEPTED');
    const def = entry.def;
    const hash = isWellFormedToken(value) ? hashToken(deps.tokenHashKey, value) : null;
    // Before the wallet version is read: what is kept under it is not kept longer than from here.
    const askedAt = entry.keeps ? Date.now() : 0;
    const gate = await deps.gate.check(hash, def.rateClass, deps.addresses.budgetKey(clientIp), entry.keeps);
    // Junk (a malformed bearer, or one no token has) from an address over its junk budget: refused
    // before anything else is looked at; one that keeps sending waits for its answer.
    if (gate.junkLimited) {
      if (gate.slowDownMs > 0) await new Promise((r) => setTimeout(r, gate.slowDownMs));
      throw refusal('RATE_LIMITED', { 'Retry-After': String(gate.retryAfter) });
    }
    const refused = authenticate(gate.token, gate.tokensDisabled, new Date());
    if (refused) throw refusal(refused);
    const token = gate.token!;
    facts.tokenId = token.tokenId;
    // Every answer from here on (the service's own too: writeHead merges these) states the token's budget.
    if (gate.rate) for (const [name, value] of Object.entries(rateLimitFields(def.rateClass, gate.rate))) res.setHeader(name, value);
    const denied = authorize(token, def.scopes);
    let internal: Record<string, string> | undefined;
    if (gate.retryAfter !== null) {
      // A token that keeps sending past its budget waits for its answer (access-gate.ts).
      if (gate.slowDownMs > 0) await new Promise((r) => setTimeout(r, gate.slowDownMs));
      const limited = refusal('RATE_LIMITED', { 'Retry-After': String(gate.retryAfter) });
      // Over budget: only a replay of a spending request (its key in the Idempotency-Key header)
      // may still be answered; the owning service knows whether it is one, and otherwise answers
      // this 429. Anything else stays a refusal that costs the gateway one Redis call.
      if (denied || !def.spends || req.headers['idempotency-key'] === undefined) throw limited;
      internal = { [REPLAY_ONLY_HEADER]: String(gate.retryAfter) };
    }
    const replayOnly = internal !== undefined;
    if (denied) throw refusal(denied);
    // A URL the owning service could only misread is refused here, once, after the token checks.
    checkUrlEncoding(url);
    // Only the plain request is answered from what was kept: a query or a body is the account's to refuse.
    const keeps = entry.keeps && q === -1 && ReadPipelines.takes(req) && !replayOnly ? gate.walletVersion : null;
    if (keeps !== null) {
      if (deps.kept.give(res, token, keeps)) return;
      // The account marks its answer keepable only under the version read here.
      internal = { ...internal, [WALLET_VERSION_HEADER]: keeps };
    }
    forward(req, res, {
      target: deps.serviceUrls[def.service],
      path: url.slice(API_PREFIX.length) || '/',
      principal: await deps.signer.forToken(token),
      reqId: facts.reqId!,
      clientIp,
      internal,
      // A replay-only request never streams its body into the service: only the key is needed.
      withoutBody: replayOnly,
      reads: entry.reads,
      keep: keeps === null ? undefined : (status, headers, body) => deps.kept.keep(token, keeps, askedAt, status, headers, body),
      logger: deps.logger,
    });
  };

  return (req, res) => {
    const facts: RequestFacts = {};
    observe(req, res, () => facts.route ?? 'unmatched', facts);
    handle(req, res, facts).catch((err: unknown) => {
      // A refusal never reads the rest of an upload it refused.
      closeAfterEarlyAnswer(req, res);
      writeError(res, err, deps.logger, facts.reqId);
    });
  };
}
