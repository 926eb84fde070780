import { Router } from 'express';
import { principalOf, mountOperation } from '@mm/http';
import type { EventsService } from '../services/events.service';

/** GET /events (listEvents). */
export function eventsRoutes(deps: { events: EventsService }): Router {
  const router = Router();
  mountOperation(router, 'listEvents', async ({ query }, { res }) => {
    // The schema's default fills `limit` in.
    const page = await deps.events.list(principalOf(res), { after: query.after, limit: query.limit });
    return { events: page.events, nextCursor: page.nextCursor };
  });
  return router;
}
