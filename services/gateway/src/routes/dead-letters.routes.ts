import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { listDeadLetters, replayDeadLetter, type Bus } from '@mm/bus';
import { ApiError } from '@mm/http';

const seqOf = (raw: unknown, name: string): number => {
  const s = String(raw ?? '');
  if (!/^\d{1,15}$/.test(s)) throw new ApiError('VALIDATION', `${name} must be a whole number`);
  return Number(s);
};

/**
 * The dead letters, under the admin API (its key checked by the admin router): messages no
 * consumer could handle (malformed, or failed more often than their limit) and outbox rows
 * JetStream refused. `GET /dead-letters?after=&limit=` lists them oldest first with the reason,
 * the subject and the original headers; `POST /dead-letters/{seq}/replay` sends one back to its
 * subject once its cause is fixed (handlers are idempotent) and removes it from the list.
 */
export function deadLettersRouter(bus: Bus): Router {
  const router = express.Router();
  const wrap = (fn: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => fn(req, res).catch(next);
  router.get('/', wrap(async (req, res) => {
    const afterSeq = req.query.after === undefined ? 0 : seqOf(req.query.after, 'after');
    const limit = req.query.limit === undefined ? 100 : seqOf(req.query.limit, 'limit');
    if (limit < 1 || limit > 500) throw new ApiError('VALIDATION', 'limit must be between 1 and 500');
    const { items, total } = await listDeadLetters(bus, { afterSeq, limit });
    res.json({ items, total, nextAfter: items.length ? items[items.length - 1].seq : afterSeq });
  }));
  router.post('/:seq/replay', wrap(async (req, res) => {
    const seq = seqOf(req.params.seq, 'seq');
    const replayed = await replayDeadLetter(bus, seq);
    if (!replayed) throw new ApiError('NOT_FOUND', 'No dead letter has that sequence.');
    res.json({ seq, subject: replayed.subject, replayed: true });
  }));
  return router;
}
