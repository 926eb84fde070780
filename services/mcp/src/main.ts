import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MeetingMemory, MmApiError } from '@mm/sdk';
import { loadConfig } from './config';
import { isLoopback } from './domain/request-guard';
import { listenHttp } from './http';
import { buildServer } from './server';
import { faultOf, faultText } from './services/faults';
import { TokenIdentity } from './services/token-identity';

/**
 * `pnpm mcp`: the MCP server over stdio for the token MM_TOKEN; `pnpm mcp --http`: Streamable HTTP
 * on MCP_PORT at /mcp, each caller's token as its bearer. stdout is the protocol over stdio: logs go to stderr.
 * A configuration that cannot work (no token, no URL) exits at once; a service that does not answer
 * at start does not: the server runs, and each call says why until the service answers.
 */
async function main(): Promise<void> {
  const cfg = loadConfig();
  if (process.argv.includes('--http')) {
    const { port } = await listenHttp(cfg);
    process.stderr.write(`mcp: Streamable HTTP on ${cfg.host}:${port}/mcp for ${cfg.url}\n`);
    if (!isLoopback(cfg.host) && cfg.allowedHosts.length === 0)
      process.stderr.write(
        'mcp: MCP_HOST is beyond loopback but MCP_ALLOWED_HOSTS is empty: only loopback Host names are answered\n',
      );
    return;
  }
  if (!cfg.token) throw new Error('mcp configuration: MM_TOKEN is required over stdio');
  const client = new MeetingMemory({ url: cfg.url, token: cfg.token });
  // One attempt per question: while the service is down, each listing or call asks again at once.
  const probe = new MeetingMemory({ url: cfg.url, token: cfg.token, retry: { maxAttempts: 1 } });
  const identity = new TokenIdentity(() => probe.whoami());
  await identity.learn().catch((err: unknown) => {
    const fault = faultOf(err, cfg.url);
    if (!fault) throw err;
    process.stderr.write(
      "mcp: the token's scopes stay unknown until whoami answers: every tool is listed and each call answers the " +
        `failure; whoami: ${faultText(fault)}\n`,
    );
  });
  const server = buildServer(
    { client, transport: 'stdio', audioUrlHosts: [], uploadDirs: cfg.uploadDirs, pollMaxSeconds: cfg.pollMaxSeconds },
    identity,
  );
  await server.connect(new StdioServerTransport());
}

main().catch((err: Error) => {
  const code = err instanceof MmApiError ? `${err.code} ` : '';
  process.stderr.write(`mcp: ${code}${err.message}\n`);
  process.exit(1);
});
