import { Router } from 'express';
import { inputOf, principalOf, sendOk, validateOperation } from '@mm/http';
import type { MemoryService } from '../services/memory.service';

/** GET /account/memory, PATCH and DELETE /account/memory/{id}. */
export function memoryRoutes(deps: { memory: MemoryService }): Router {
  const router = Router();
  router.get('/account/memory', validateOperation('listMemory'), async (_req, res) => {
    sendOk(res, { ...(await deps.memory.list(principalOf(res).accountId)) });
  });
  router.patch('/account/memory/:id', validateOperation('updateMemoryItem'), async (_req, res) => {
    const { params, body } = inputOf(res);
    sendOk(res, { item: await deps.memory.edit(principalOf(res).accountId, params.id, body.text as string) });
  });
  router.delete('/account/memory/:id', validateOperation('deleteMemoryItem'), async (_req, res) => {
    sendOk(res, { ...(await deps.memory.remove(principalOf(res).accountId, inputOf(res).params.id)) });
  });
  return router;
}
