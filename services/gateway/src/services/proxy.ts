import http from 'node:http';
import type { Request, Response } from 'express';
import { PRINCIPAL_HEADER } from '@mm/http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 512, keepAliveMsecs: 30_000 });

/** Headers never forwarded: credentials, hop-by-hop headers, and anything internal a client forged. */
const DROP = new Set(['authorization', 'cookie', 'host', 'connection', 'keep-alive', 'proxy-authorization', 'te', 'trailer', 'upgrade']);

/**
 * Forwards a request to an owning service with the signed principal, streaming both bodies
 * (uploads are never held whole in memory).
 */
export function forward(req: Request, res: Response, target: string, path: string, principal: string | null, onError: (err: unknown) => void, body?: Buffer): void {
  const headers: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (DROP.has(k) || k.startsWith('x-mm-')) continue;
    headers[k] = v;
  }
  if (principal) headers[PRINCIPAL_HEADER] = principal;
  headers['x-request-id'] = res.locals.reqId as string;
  headers['x-forwarded-for'] = req.ip ?? '';
  if (body) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(body.length);
    delete headers['transfer-encoding'];
  }
  const url = new URL(target);
  const upstream = http.request(
    { host: url.hostname, port: url.port, method: req.method, path, headers, agent },
    (up) => {
      res.status(up.statusCode ?? 502);
      for (const [k, v] of Object.entries(up.headers)) {
        if (v !== undefined && k !== 'connection' && k !== 'keep-alive' && k !== 'transfer-encoding') res.setHeader(k, v);
      }
      up.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    onError(err);
    if (!res.headersSent) res.status(502).json({ error: { code: 'INTERNAL_ERROR', message: 'The owning service did not answer.' } });
    else res.destroy();
  });
  req.on('aborted', () => upstream.destroy());
  if (body) upstream.end(body);
  else req.pipe(upstream);
}
