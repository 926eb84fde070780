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
  if (urlProblem) problems.push(urlProblem);
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

/**
 * Why MM_URL cannot be the service's address; null when it can. Credentials, a query or a fragment
 * would ride on every request (fetch refuses credentials outright): refused here, said without the password.
 */
function serviceUrlProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return `MM_URL must be the service's http(s) URL, not "${redacted(url)}"`;
  }
  if ((u.protocol !== 'http:' && u.protocol !== 'https:') || u.hostname === '')
    return `MM_URL must be the service's http(s) URL, not "${redacted(url)}"`;
  const extras = [
    u.username || u.password ? 'a user or password (the token goes in MM_TOKEN)' : '',
    u.search ? 'a query string' : '',
    u.hash ? 'a fragment' : '',
  ].filter(Boolean);
  if (extras.length) return `MM_URL must be the service's address alone, without ${extras.join(', ')}: "${redacted(url)}"`;
  return null;
}

/**
 * The URL as it may be shown: its user part (a password, or a token put there) as `***`, a query's
 * and a fragment's content as `…` (they may carry a secret too), parseable or not.
 */
function redacted(url: string): string {
  const scheme = url.indexOf('://');
  const start = scheme < 0 ? 0 : scheme + 3;
  const at = url.lastIndexOf('@');
  const hidden = at >= start ? `${url.slice(0, start)}***${url.slice(at)}` : url;
  return hidden.replace(/\?[^#]+/, '?…').replace(/#.+$/, '#…');
}
