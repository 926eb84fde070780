import express from 'express';
import type { Server as HttpServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SCOPES } from '@mm/contract';
import { MeetingMemory, MmApiError, MmTransportError } from '@mm/sdk';
import type { McpConfig } from './config';
import { hostProblem, originProblem } from './domain/request-guard';
import { buildServer } from './server';
import { unreachable } from './services/faults';
import { TokenIdentity } from './services/token-identity';

const METADATA_PATH = '/.well-known/oauth-protected-resource';

/**
 * The Streamable HTTP server, stateless: each POST /mcp carries the caller's token as its bearer;
 * the server asks whoami which scopes it has and answers with the tools those admit. Every request
 * must name this server in Host and, from a browser, come from an allowed Origin; a request
 * without a usable token answers 401 with WWW-Authenticate pointing at the protected-resource
 * metadata (RFC 9728), which says how to get a token.
 */
export function createHttpApp(cfg: McpConfig): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use((req, res, next) => {
    const problem =
      hostProblem(req.headers.host, cfg.allowedHosts) ?? originProblem(req.headers.origin, cfg.allowedOrigins);
    if (problem) return rpcError(res, 403, 'FORBIDDEN', problem);
    next();
  });
  // RFC 9728: at the well-known path, and at it suffixed with the resource's path.
  app.get([METADATA_PATH, `${METADATA_PATH}/mcp`], (req, res) => {
    res.json(resourceMetadata(cfg, baseUrl(req)));
  });
  app.use(express.json({ limit: '1mb' }));
  app.post('/mcp', async (req, res) => {
    const token = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token)
      return unauthorized(req, res, cfg, 'UNAUTHORIZED', 'send an API token as Authorization: Bearer <token>');
    const client = new MeetingMemory({ url: cfg.url, token });
    let who;
    try {
      who = await client.whoami();
    } catch (err) {
      if (err instanceof MmApiError && err.status === 401) return unauthorized(req, res, cfg, err.code, err.message);
      if (err instanceof MmApiError) return rpcError(res, err.status, err.code, err.message);
      if (err instanceof MmTransportError) return rpcError(res, 502, 'UNREACHABLE', unreachable(cfg.url, err).message);
      throw err;
    }
    const server = buildServer(
      {
        client,
        transport: 'http',
        audioUrlHosts: cfg.audioUrlHosts,
        uploadDirs: [],
        pollMaxSeconds: cfg.pollMaxSeconds,
      },
      new TokenIdentity(() => client.whoami(), who),
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  // Stateless: no server-initiated stream and no session to end.
  app.all('/mcp', (_req, res) => rpcError(res, 405, 'METHOD_NOT_ALLOWED', 'POST only'));
  // Last: an unexpected failure answers its code alone, never a stack.
  app.use((_err: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    if (!res.headersSent) rpcError(res, 500, 'INTERNAL_ERROR', 'unexpected failure');
  });
  return app;
}

/** How a caller reached this server (Host was checked against the allow-list before). */
function baseUrl(req: express.Request): string {
  return `${req.protocol}://${req.headers.host}`;
}

/** The protected-resource metadata (RFC 9728): the resource, how the token is sent, and where a person gets one. */
export function resourceMetadata(cfg: McpConfig, base: string): Record<string, unknown> {
  const help = cfg.tokenHelpUrl ?? cfg.url;
  return {
    resource: `${base}/mcp`,
    resource_name: 'Meeting Memory',
    bearer_methods_supported: ['header'],
    scopes_supported: [...SCOPES],
    resource_documentation: help,
    token_instructions:
      'Make a personal API token in the Meeting Memory app (developer mode, API tokens) with the scopes you need, ' +
      `then send it as Authorization: Bearer <token>. More: ${help}`,
  };
}

function unauthorized(req: express.Request, res: express.Response, cfg: McpConfig, code: string, message: string) {
  const error = code === 'UNAUTHORIZED' ? '' : ', error="invalid_token"';
  res.setHeader(
    'WWW-Authenticate',
    `Bearer realm="meeting-memory", resource_metadata="${baseUrl(req)}${METADATA_PATH}/mcp"${error}`,
  );
  rpcError(
    res,
    401,
    code,
    `${message}; how to get a token: ${resourceMetadata(cfg, baseUrl(req)).resource_documentation}`,
  );
}

function rpcError(res: express.Response, status: number, code: string, message: string): void {
  res
    .status(status)
    .json({ jsonrpc: '2.0', error: { code: -32001, message: `${code}: ${message}`, data: { code } }, id: null });
}

/** Listens on `port` (0 for any free one) at cfg.host (loopback unless told otherwise). */
export function listenHttp(
  cfg: McpConfig,
  port = cfg.port,
): Promise<{ port: number; address: string; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server: HttpServer = createHttpApp(cfg).listen(port, cfg.host, () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        address: typeof address === 'object' && address ? address.address : cfg.host,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
    server.once('error', reject);
  });
}
