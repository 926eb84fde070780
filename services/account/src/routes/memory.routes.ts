import { Router } from 'express';
import { principalOf, mountOperation } from '@mm/http';
import type { MemoryService } from '../services/memory.service';

/**
 * GET /account/memory, PATCH and DELETE /account/memory/{id}. Memory is on unless the principal
 * says it is off (a principal from a gateway that predates the feature has no such field).
 */
export function memoryRoutes(deps: { memory: MemoryService }): Router {
  const router = Router();
  mountOperation(router, 'listMemory', async (_input, { res }) => {
    const p = principalOf(res);
    return deps.memory.list(p.accountId, p.features.memory !== false);
  });
  mountOperation(router, 'updateMemoryItem', async ({ params, body }, { res }) => {
    const p = principalOf(res);
    return { item: await deps.memory.edit(p.accountId, p.features.memory !== false, params.id, body.text) };
  });
  mountOperation(router, 'deleteMemoryItem', async ({ params }, { res }) => {
    const p = principalOf(res);
    return deps.memory.remove(p.accountId, p.features.memory !== false, params.id);
  });
  return router;
}
