import { Router } from 'express';
import { inputOf, principalOf, sendOk, validateOperation } from '@mm/http';
import type { MemoryService } from '../services/memory.service';

/**
 * GET /account/memory, PATCH and DELETE /account/memory/{id}. Memory is on unless the principal
 * says it is off (a principal from a gateway that predates the feature has no such field).
 */
export function memoryRoutes(deps: { memory: MemoryService }): Router {
  const router = Router();
  router.get('/account/memory', validateOperation('listMemory'), async (_req, res) => {
    const p = principalOf(res);
    sendOk(res, { ...(await deps.memory.list(p.accountId, p.features.memory !== false)) });
  });
  router.patch('/account/memory/:id', validateOperation('updateMemoryItem'), async (_req, res) => {
    const { params, body } = inputOf(res);
    const p = principalOf(res);
    sendOk(res, { item: await deps.memory.edit(p.accountId, p.features.memory !== false, params.id, body.text as string) });
  });
  router.delete('/account/memory/:id', validateOperation('deleteMemoryItem'), async (_req, res) => {
    const p = principalOf(res);
    sendOk(res, { ...(await deps.memory.remove(p.accountId, p.features.memory !== false, inputOf(res).params.id)) });
  });
  return router;
}
