/**
 * Which requests the HTTP server answers at all (the MCP spec's DNS-rebinding defence): the Host
 * header must name this server, and a browser's Origin must be one the operator allowed. Pure.
 */

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Why the Host header is refused, or null. `allowed` holds `name` or `name:port`; empty: the loopback names. */
export function hostProblem(host: string | undefined, allowed: readonly string[]): string | null {
  if (!host) return 'a Host header is required';
  const value = host.toLowerCase();
  const name = value.startsWith('[') ? value.slice(0, value.indexOf(']') + 1) : value.split(':')[0];
  const list = allowed.length ? allowed : LOOPBACK_NAMES;
  if (list.some((a) => a === value || a === name)) return null;
  return `Host ${host} is not one this server answers (MCP_ALLOWED_HOSTS)`;
}

/** Why the Origin header is refused, or null. No Origin (not a browser) passes; a browser's must be listed. */
export function originProblem(origin: string | undefined, allowed: readonly string[]): string | null {
  if (origin === undefined) return null;
  if (allowed.includes(origin.toLowerCase())) return null;
  return `Origin ${origin} is not allowed to call this server (MCP_ALLOWED_ORIGINS)`;
}

/** Whether an address to listen on stays on this machine. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}
