import { serviceUrlProblem } from '@mm/sdk';

export interface McpConfig {
  /** MM_URL: the service (gateway) URL the tools call. */
  url: string;
  /** MM_TOKEN: the API token of the stdio server (over HTTP each caller sends its own). */
  token: string | undefined;
  /** MCP_PORT: the Streamable HTTP server's port (`--http`). */
  port: number;
  /** MCP_AUDIO_URL_HOSTS: hosts HTTP callers may have audio fetched from, comma-separated; empty turns fetching off. */
  audioUrlHosts: readonly string[];
  /** MCP_POLL_SECONDS: longest wait between status polls while waiting (the contract asks about once a minute). */
  pollMaxSeconds: number;
}

/** Reads the MCP server's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<McpConfig> {
  const problems: string[] = [];
  const url = env.MM_URL ?? '';
  const urlProblem = serviceUrlProblem(url);
  if (urlProblem) problems.push(`MM_URL ${urlProblem}`);
  const port = Number(env.MCP_PORT ?? 8090);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('MCP_PORT must be a port number');
  const poll = Number(env.MCP_POLL_SECONDS ?? 60);
  if (!Number.isFinite(poll) || poll <= 0) problems.push('MCP_POLL_SECONDS must be a positive number');
  if (problems.length) throw new Error(`mcp configuration: ${problems.join('; ')}`);
  return Object.freeze({
    url,
    token: env.MM_TOKEN || undefined,
    port,
    audioUrlHosts: Object.freeze(
      (env.MCP_AUDIO_URL_HOSTS ?? '')
        .split(',')
        .map((h) => h.trim().toLowerCase())
        .filter(Boolean),
    ),
    pollMaxSeconds: poll,
  });
}
