import { ROUTES } from './routes';
import { ADMIN_ROUTES, APP_INTERNAL_ROUTES } from './admin/admin.routes';
import type { InternalRouteDef, RouteDef, ServiceName } from './routes.types';

/** An operation of any table. */
export type AnyOperation = RouteDef | InternalRouteDef;

export { ADMIN_ROUTES, APP_INTERNAL_ROUTES };

/** Every operation of every table (public, admin, the app's): one operationId names one route. */
export const ALL_OPERATIONS: readonly AnyOperation[] = [...ROUTES, ...ADMIN_ROUTES, ...APP_INTERNAL_ROUTES];

/** The operation of an operationId, from any table. */
export function operationOf(operationId: string): AnyOperation {
  const op = ALL_OPERATIONS.find((r) => r.operationId === operationId);
  if (!op) throw new Error(`unknown operationId ${operationId}`);
  return op;
}

/** `/series/{id}` with its parameters filled in (each encoded): the path a client calls. */
export function pathOf(
  operation: Pick<AnyOperation, 'path'> | string,
  params: Record<string, string | number> = {},
): string {
  const path = typeof operation === 'string' ? operation : operation.path;
  return path.replace(/\{(\w+)\}/g, (_m, name: string) => {
    if (params[name] === undefined) throw new Error(`path ${path} needs ${name}`);
    return encodeURIComponent(String(params[name]));
  });
}

/** Where the gateway forwards an admin operation a service answers (the table's `forward`), or null. */
export function forwardOf(operationId: string): InternalRouteDef['forward'] | null {
  return [...ADMIN_ROUTES, ...APP_INTERNAL_ROUTES].find((r) => r.operationId === operationId)?.forward ?? null;
}

/** Who answers an operation: its owning service, or the gateway (the admin API, the app's access routes). */
export function serviceOf(operationId: string): 'gateway' | ServiceName {
  return operationOf(operationId).service;
}
