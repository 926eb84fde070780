/** Which scopes the route of a refused request needs, from the contract's route table. Pure. */
import { ROUTES, RouteMatcher, type RouteDef } from '@mm/contract';

const matcher = new RouteMatcher<RouteDef>(ROUTES.map((route) => ({ method: route.method, path: route.path, route })));

/** The scopes any one of which admits the request (`GET …/api/v1/series/readable` → series:read); [] when unknown. */
export function requiredScopes(method: string, url: string, apiRoot: string): string[] {
  const rootPath = new URL(apiRoot).pathname.replace(/\/+$/, '');
  const pathname = new URL(url).pathname;
  if (!pathname.startsWith(rootPath)) return [];
  const found = matcher.match(method, pathname.slice(rootPath.length));
  if (!found || !('route' in found) || found.route.scopes === 'any') return [];
  return [...found.route.scopes];
}
