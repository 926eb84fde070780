import express from 'express';
import type { Server as HttpServer } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { MeetingMemory, MmApiError, MmTransportError } from '@mm/sdk';
import type { McpConfig } from './config';
import { buildServer } from './server';
import { unreachable } from './services/faults';
import { TokenIdentity } from './services/token-identity';

/**
 * The Streamable HTTP server, stateless: each POST /mcp carries the caller's token as its bearer;
 * the server asks whoami which scopes it has and answers with the tools those admit.
 */
export function createHttpApp(cfg: McpConfig): express.Express {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.post('/mcp', async (req, res) => {
    const token = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return rpcError(res, 401, 'UNAUTHORIZED', 'send the API token as Authorization: Bearer <token>');
    const client = new MeetingMemory({ url: cfg.url, token });
    let who;
    try {
      who = await client.whoami();
    } catch (err) {
      if (err instanceof MmApiError) return rpcError(res, err.status, err.code, err.message);
      if (err instanceof MmTransportError) return rpcError(res, 502, 'UNREACHABLE', unreachable(cfg.url, err).message);
      throw err;
    }
    const server = buildServer(
      { client, transport: 'http', audioUrlHosts: cfg.audioUrlHosts, pollMaxSeconds: cfg.pollMaxSeconds },
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

function rpcError(res: express.Response, status: number, code: string, message: string): void {
  res
    .status(status)
    .json({ jsonrpc: '2.0', error: { code: -32001, message: `${code}: ${message}`, data: { code } }, id: null });
}

/** Listens on `port` (0 for any free one). */
export function listenHttp(cfg: McpConfig, port = cfg.port): Promise<{ port: number; close: () => Promise<void> }> {
  return new Promise((resolve) => {
    const server: HttpServer = createHttpApp(cfg).listen(port, '0.0.0.0', () => {
      const address = server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : port,
        close: () =>
          new Promise<void>((done) => {
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}
