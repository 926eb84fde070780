import { Router } from 'express';
import { inputOf, principalOf, sendOk, mountOperation } from '@mm/http';
import type { MemoryService } from '../services/memory.service';

/**
 * GET /account/memory, PATCH and DELETE /account/memory/{id}. Memory is on unless the principal
 * says it is off (a principal from a gateway that predates the feature has no such field).
 */
export function memoryRoutes(deps: { memory: MemoryService }): Router {
  const router = Router();
  mountOperation(router, 'listMemory', [], async (_req, res) => {
    const p = principalOf(res);
    sendOk(res, { ...(await deps.memory.list(p.accountId, p.features.memory !== false)) });
  });
  mountOperation(router, 'updateMemoryItem', [], async (_req, res) => {
    const { params, body } = inputOf(res);
    const p = principalOf(res);
    sendOk(res, { item: await deps.memory.edit(p.accountId, p.features.memory !== false, params.id, body.text as string) });
  });
  mountOperation(router, 'deleteMemoryItem', [], async (_req, res) => {
    const p = principalOf(res);
    sendOk(res, { ...(await deps.memory.remove(p.accountId, p.features.memory !== false, inputOf(res).params.id)) });
  });
  return router;
}
