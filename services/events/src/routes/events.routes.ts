import { Router } from 'express';
import { inputOf, principalOf, sendOk, mountOperation } from '@mm/http';
import { LIMITS } from '@mm/contract';
import type { EventsService } from '../services/events.service';

/** GET /events (listEvents). */
export function eventsRoutes(deps: { events: EventsService }): Router {
  const router = Router();
  mountOperation(router, 'listEvents', [], async (_req, res) => {
    const q = inputOf(res).query as { after?: string; limit?: number };
    const page = await deps.events.list(principalOf(res), { after: q.after, limit: q.limit ?? LIMITS.eventsLimitDefault });
    sendOk(res, { events: page.events, nextCursor: page.nextCursor });
  });
  return router;
}
