import { ERROR_CODES, GATEWAY_CHECK_CODES, SCOPE_SWITCH, type ErrorCode } from './catalog';
import type { RouteDef } from './routes.types';

/**
 * Every error code one public route can answer: the gateway's checks that apply to it (TOKEN_SCOPE
 * only when the route needs a scope, SCOPE_DISABLED only when one of its scopes has a rollout
 * switch), the route's own `errors`, VALIDATION (every route refuses a query parameter it does not
 * declare) and INTERNAL_ERROR, which any request can meet.
 * Codes are unique, in the order the gateway checks them, then the route's own.
 */
export function routeErrorCodes(route: RouteDef): ErrorCode[] {
  const gateway = GATEWAY_CHECK_CODES.filter((code) => {
    if (code === 'TOKEN_SCOPE') return route.scopes !== 'any';
    if (code === 'SCOPE_DISABLED')
      return route.scopes !== 'any' && route.scopes.some((s) => SCOPE_SWITCH[s] !== undefined);
    return true;
  });
  const own = route.errors.filter((c): c is ErrorCode => c in ERROR_CODES);
  return [...new Set<ErrorCode>([...gateway, ...own, 'VALIDATION', 'INTERNAL_ERROR'])];
}

/** The route's error codes grouped by HTTP status, statuses ascending. */
export function routeErrorsByStatus(route: RouteDef): Map<number, ErrorCode[]> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of routeErrorCodes(route)) {
    const status = ERROR_CODES[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus.entries()].sort(([a], [b]) => a - b));
}
