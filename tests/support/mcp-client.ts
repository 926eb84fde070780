import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CallToolResultSchema, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { REPO } from './run-mm';

export type ToolCallResult = {
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  content: { type: string; text?: string }[];
};

/** A tool error's `structuredContent.error`. */
export type ToolFault = {
  code: string;
  message: string;
  details?: Record<string, unknown>;
  retryAfterSeconds?: number;
};

/**
 * The MCP SDK's client on `pnpm -C <repo> mcp` over stdio, as an MCP client is configured (README),
 * with `env` over this process's environment; `stderr()` is what the server logged.
 */
export async function stdioMcpClient(env: Record<string, string>): Promise<{ client: Client; stderr: () => string }> {
  const client = new Client({ name: 'test', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: 'pnpm',
    args: ['-C', REPO, 'mcp'],
    cwd: REPO,
    env: { ...(process.env as Record<string, string>), MCP_POLL_SECONDS: '1', ...env },
    stderr: 'pipe',
  });
  let logged = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    logged += chunk.toString();
    process.stderr.write(chunk);
  });
  await client.connect(transport);
  return { client, stderr: () => logged };
}

/** One tools/call, waiting as long as progress keeps coming. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  onprogress?: (p: Progress) => void,
): Promise<ToolCallResult> {
  return (await client.callTool({ name, arguments: args }, CallToolResultSchema, {
    onprogress,
    timeout: 180_000,
    resetTimeoutOnProgress: true,
  })) as ToolCallResult;
}

/** The `structuredContent.error` of a tool error (fails the test when the call succeeded). */
export function faultOf(result: ToolCallResult): ToolFault {
  if (!result.isError) throw new Error(`expected a tool error, got ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent!.error as ToolFault;
}
