import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { MeetingMemory, MmApiError } from '@mm/sdk';
import { loadConfig } from './config';
import { listenHttp } from './http';
import { buildServer } from './server';

/**
 * `pnpm mcp`: the MCP server over stdio for the token MM_TOKEN; `pnpm mcp --http`: Streamable HTTP
 * on MCP_PORT at /mcp, each caller's token as its bearer. stdout is the protocol over stdio: logs go to stderr.
 */
async function main(): Promise<void> {
  const cfg = loadConfig();
  if (process.argv.includes('--http')) {
    const { port } = await listenHttp(cfg);
    process.stderr.write(`mcp: Streamable HTTP on :${port}/mcp for ${cfg.url}\n`);
    return;
  }
  if (!cfg.token) throw new Error('mcp configuration: MM_TOKEN is required over stdio');
  const client = new MeetingMemory({ url: cfg.url, token: cfg.token });
  const who = await client.whoami();
  const server = buildServer(
    { client, transport: 'stdio', audioUrlHosts: [], pollMaxSeconds: cfg.pollMaxSeconds },
    who,
  );
  await server.connect(new StdioServerTransport());
}

main().catch((err: Error) => {
  const code = err instanceof MmApiError ? `${err.code} ` : '';
  process.stderr.write(`mcp: ${code}${err.message}\n`);
  process.exit(1);
});
