import type { HttpMethod } from './routes.types';

/** A compiled path template: matches a concrete path and extracts its parameters. */
export interface CompiledPath<T> {
  method: HttpMethod;
  regex: RegExp;
  names: string[];
  route: T;
}

/** Compiles `/recordings/{id}/status` into a regular expression with named segments. */
export function compilePath<T>(method: HttpMethod, path: string, route: T): CompiledPath<T> {
  const names: string[] = [];
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  return { method, regex: new RegExp(`^${pattern}$`), names, route };
}

/** Percent-decodes a path segment; a malformed escape leaves the segment as sent (it then names nothing). */
function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * Finds the route for a method and path. Literal segments win over parameters
 * (`/recordings/ready` before `/recordings/{id}`), because routes are tried most literal first.
 */
export class RouteMatcher<T> {
  private readonly compiled: CompiledPath<T>[];

  constructor(entries: { method: HttpMethod; path: string; route: T }[]) {
    // Only templates with as many segments as the path can match it; among those, comparing the
    // segments left to right with a literal before a parameter puts the most literal first.
    const shape = (p: string) =>
      p
        .split('/')
        .map((s) => (s.startsWith('{') ? '1' : '0'))
        .join('');
    this.compiled = [...entries]
      .sort((a, b) => (shape(a.path) < shape(b.path) ? -1 : shape(a.path) > shape(b.path) ? 1 : 0))
      .map((e) => compilePath(e.method, e.path, e.route));
  }

  /**
   * Returns the route and path parameters (percent-decoded), `methodMismatch` when only the
   * method is wrong, or null when no template has this path. `path` excludes the query string.
   */
  match(method: string, path: string): { route: T; params: Record<string, string> } | { methodMismatch: true } | null {
    let pathMatched = false;
    for (const c of this.compiled) {
      const m = c.regex.exec(path);
      if (!m) continue;
      pathMatched = true;
      if (c.method !== method.toLowerCase()) continue;
      const params: Record<string, string> = {};
      c.names.forEach((n, i) => {
        params[n] = decodeSegment(m[i + 1]);
      });
      return { route: c.route, params };
    }
    return pathMatched ? { methodMismatch: true } : null;
  }
}
