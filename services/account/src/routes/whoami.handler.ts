import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { operationOf, type WhoamiOutput } from '@mm/contract';
import {
  ApiError,
  checkUrlEncoding,
  hasScope,
  PRINCIPAL_HEADER,
  requestObserver,
  writeError,
  type Principal,
  type PrincipalVerifier,
  type RequestFacts,
} from '@mm/http';
import type { WalletService } from '../services/wallet.service';

export interface WhoamiDeps {
  wallet: WalletService;
  verifier: PrincipalVerifier;
  uploadLimits: { maxUploadMb: number; maxRecordingMinutes: number };
  logger: Logger;
}

/** The Token info resource, from the principal and the wallet's figures. */
export function tokenInfo(
  p: Principal,
  s: { balanceMinutes: number; usedMinutes24h: number },
  limits: WhoamiDeps['uploadLimits'],
): { schemaVersion: 1 } & WhoamiOutput {
  // Only a token's principal reaches whoami (the gateway routes no app session to it).
  if (p.tokenId === null || p.tokenName === null)
    throw new ApiError('TOKEN_NOT_ACCEPTED', 'whoami describes an API token; this request carries none.');
  return {
    schemaVersion: 1 as const,
    owner: { type: 'user', id: p.accountId, displayName: p.displayName },
    token: {
      id: p.tokenId,
      name: p.tokenName,
      scopes: p.scopes,
      dailyMinuteCap: p.dailyMinuteCap,
      usedMinutes24h: s.usedMinutes24h,
      expiresAt: p.tokenExpiresAt,
    },
    wallet: hasScope(p, 'account:read') ? { balanceMinutes: s.balanceMinutes } : null,
    limits,
  };
}

function send(res: ServerResponse, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(json) });
  res.end(json);
}

/**
 * GET /whoami on plain node:http: the most frequent call of every agent, so it skips express.
 * Same principal check, validation (whoami takes no parameters), log line and metrics.
 * Returns false for any other request.
 */
export function whoamiHandler(deps: WhoamiDeps): (req: IncomingMessage, res: ServerResponse) => boolean {
  const observe = requestObserver('account', deps.logger);
  // The route table's path and method: the one route not mounted through express (mountOperation).
  const { path, method } = operationOf('whoami');
  const METHOD = method.toUpperCase();
  return (req, res) => {
    const url = req.url ?? '';
    if (req.method !== METHOD || !(url === path || url.startsWith(`${path}?`))) return false;
    const facts: RequestFacts = { route: 'whoami' };
    observe(req, res, () => 'whoami', facts);
    (async () => {
      const p = await deps.verifier.verify(req.headers[PRINCIPAL_HEADER] as string | undefined);
      facts.principal = p;
      checkUrlEncoding(url);
      const query = url.slice(path.length + 1);
      if (query)
        throw new ApiError('VALIDATION', `query parameter ${decodeURIComponent(query.split('=')[0])} is not allowed`);
      send(res, tokenInfo(p, await deps.wallet.summary(p.accountId, p.tokenId), deps.uploadLimits));
    })().catch((err: unknown) => writeError(res, err, deps.logger, facts.reqId));
    return true;
  };
}
