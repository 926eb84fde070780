import type { RequestHandler, Router } from 'express';
import { routeOf, validateOperation } from './validate';

/** `/series/{id}` as express spells it: `/series/:id`. */
export function expressPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

/**
 * Mounts one operation of the contract's route table on a router: its method and path come from
 * the table (no path is spelled twice), then `guards` (checks the contract puts before
 * validation), the operation's validation, and the handler. Mount literal paths before templated
 * ones (`/series/readable` before `/series/{id}`).
 */
export function mountOperation(router: Router, operationId: string, guards: RequestHandler[], handler: RequestHandler): void {
  const route = routeOf(operationId);
  router[route.method](expressPath(route.path), ...guards, validateOperation(operationId), handler);
}
