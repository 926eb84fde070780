import path from 'node:path';
import { otherSurfaceOf, redactUrl, serviceUrlProblem } from '@mm/sdk';

export interface McpConfig {
  /** MM_URL: the service (gateway) URL the tools call. */
  url: string;
  /** MM_TOKEN: the API token of the stdio server (over HTTP each caller sends its own). */
  token: string | undefined;
  /** MCP_PORT: the Streamable HTTP server's port (`--http`). */
  port: number;
  /** MCP_HOST: the address the HTTP server listens on; loopback unless told otherwise. */
  host: string;
  /**
   * MCP_ALLOWED_HOSTS: Host header values (`name` or `name:port`) the HTTP server answers, comma-separated;
   * empty: the loopback names (localhost, 127.0.0.1, [::1]). Stops DNS rebinding.
   */
  allowedHosts: readonly string[];
  /** MCP_ALLOWED_ORIGINS: browser origins allowed to call the HTTP server; empty: none (a request without Origin passes). */
  allowedOrigins: readonly string[];
  /** MCP_TOKEN_HELP_URL: where a person learns to make an API token (in the 401 and the resource metadata). */
  tokenHelpUrl: string | undefined;
  /** MCP_AUDIO_URL_HOSTS: hosts HTTP callers may have audio fetched from, comma-separated; empty turns fetching off. */
  audioUrlHosts: readonly string[];
  /** MM_UPLOAD_DIRS: folders the stdio server may upload from (beside the client's roots), separated like PATH. */
  uploadDirs: readonly string[];
  /** MCP_POLL_SECONDS: longest wait between status polls while waiting (the contract asks about once a minute). */
  pollMaxSeconds: number;
}

const list = (v: string | undefined, lower = true) =>
  Object.freeze(
    (v ?? '')
      .split(',')
      .map((h) => (lower ? h.trim().toLowerCase() : h.trim()))
      .filter(Boolean),
  );

/** Reads the MCP server's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<McpConfig> {
  const problems: string[] = [];
  const url = env.MM_URL ?? '';
  const urlProblem = serviceUrlProblem(url);
  if (urlProblem) problems.push(`MM_URL ${urlProblem}`);
  const surface = urlProblem ? null : otherSurfaceOf(url);
  if (surface)
    problems.push(
      `MM_URL ${redactUrl(url)} points into ${surface}, not the Meeting Memory API: give the gateway's address`,
    );
  const port = Number(env.MCP_PORT ?? 8090);
  if (!Number.isInteger(port) || port < 0 || port > 65535) problems.push('MCP_PORT must be a port number');
  const poll = Number(env.MCP_POLL_SECONDS ?? 60);
  if (!Number.isFinite(poll) || poll <= 0) problems.push('MCP_POLL_SECONDS must be a positive number');
  const uploadDirs = (env.MM_UPLOAD_DIRS ?? '').split(path.delimiter).filter(Boolean);
  for (const dir of uploadDirs)
    if (!path.isAbsolute(dir)) problems.push(`MM_UPLOAD_DIRS must list absolute folders, not ${dir}`);
  const origins = list(env.MCP_ALLOWED_ORIGINS);
  for (const o of origins)
    if (!/^https?:\/\/[^/]+$/.test(o)) problems.push(`MCP_ALLOWED_ORIGINS: ${o} is not an origin`);
  if (problems.length) throw new Error(`mcp configuration: ${problems.join('; ')}`);
  return Object.freeze({
    url,
    token: env.MM_TOKEN || undefined,
    port,
    host: env.MCP_HOST || '127.0.0.1',
    allowedHosts: list(env.MCP_ALLOWED_HOSTS),
    allowedOrigins: origins,
    tokenHelpUrl: env.MCP_TOKEN_HELP_URL || undefined,
    audioUrlHosts: list(env.MCP_AUDIO_URL_HOSTS),
    uploadDirs: Object.freeze(uploadDirs.map((d) => path.resolve(d))),
    pollMaxSeconds: poll,
  });
}
