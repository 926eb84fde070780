import { openAsBlob } from 'node:fs';
import express, { Router, type Response } from 'express';
import { LIMITS } from '@mm/contract';
import { signedIn, signedInJson, sendPage, type PageDeps } from './context';
import { UPLOAD_PARTS, UploadRefusal, type PartInfo, type UploadPart } from '../services/upload-store';
import { uploadText } from '../i18n/upload-messages';
import { KINDS } from '../views/lists.views';
import { UploadView } from '../views/upload.view';

const MB = 1024 * 1024;
/**
 * The largest piece of an upload. The gateway's door streams request bodies to the app, so a piece
 * is bounded only by what the app holds in memory for one request; the page sends smaller ones
 * for a small file (about a sixteenth of it, at least 64 KB) so its progress bar still moves.
 */
export const PIECE_BYTES = 8 * MB;
/** The text parts of POST /recordings the page sends, and how long each may be. */
const TEXT_PARTS: Record<string, number> = {
  title: 200,
  kind: 20,
  outputLanguage: 10,
  seriesId: 64,
  naming: 10,
  useKeyterms: 5,
  recordedAt: 40,
};

function refuse(res: Response, err: unknown): void {
  if (!(err instanceof UploadRefusal)) throw err;
  const retryAfter = err.details?.retryAfterSeconds;
  if (typeof retryAfter === 'number') res.setHeader('Retry-After', String(retryAfter));
  res
    .status(err.status)
    .json({ error: { code: err.code, message: err.code, ...(err.details ? { details: err.details } : {}) } });
}

/**
 * Upload and record in the browser. The page's script sends the file in pieces to the app
 * (POST /uploads, PUT /uploads/:id/:part?offset=, then POST /uploads/:id/send with the
 * Idempotency-Key it made once for this file); the app then sends the whole multipart body to
 * the recordings service's app upload route, which keeps every rule of POST /recordings (limits,
 * refusals, one meeting per key across retries). The app only passes its answer on.
 */
export function uploadRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base, backend, uploads, limits } = deps;
  const json = express.json({ limit: '16kb' });

  router.get(
    '/upload',
    signedIn(deps, async (_req, res, ctx) => {
      // Each series' defaults are the start value of the digest settings of a meeting filed in it
      // (contract): the owner's series with them, one read.
      const [series, account] = await Promise.all([
        backend.operation('appListOwnedSeries', ctx.principal).then(
          (x) => x.series,
          () => [],
        ),
        backend.operation('getAccount', ctx.principal).catch(() => null),
      ]);
      sendPage(
        res,
        ctx,
        uploadText(ctx.s.locale).uploadTitle,
        <UploadView
          s={ctx.s}
          base={base}
          viewer={ctx.viewer}
          series={series}
          kinds={KINDS}
          balance={account?.wallet.balanceMinutes ?? null}
          limits={{ ...limits, attachmentMaxMb: LIMITS.attachmentMaxMb, pieceBytes: PIECE_BYTES }}
        />,
      );
    }),
  );

  router.post(
    '/uploads',
    json,
    signedInJson(deps, async (req, res, { who }) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const parts: Partial<Record<UploadPart, PartInfo>> = {};
      for (const part of UPLOAD_PARTS) {
        const p = body[part] as Partial<PartInfo> | undefined;
        if (p === undefined || p === null) continue;
        if (typeof p !== 'object' || !Number.isInteger(p.size) || (p.size as number) < 1)
          return void res
            .status(400)
            .json({ error: { code: 'VALIDATION', message: `${part}.size must be a whole number of bytes` } });
        const max = part === 'audio' ? limits.maxUploadMb * MB : LIMITS.attachmentMaxMb * MB;
        if ((p.size as number) > max)
          return void res.status(413).json({
            error: {
              code: part === 'audio' ? 'UPLOAD_TOO_LARGE' : 'ATTACHMENT_TOO_LARGE',
              message: `${part} is too large`,
            },
          });
        const name =
          String(p.name ?? part)
            .replace(/[\u0000-\u001f"\\/]/g, '_')
            .slice(0, 200) || part;
        const type = /^[\w.+-]+\/[\w.+-]+$/.test(String(p.type ?? '')) ? String(p.type) : 'application/octet-stream';
        parts[part] = { size: p.size as number, name, type };
      }
      if (!parts.audio)
        return void res.status(400).json({ error: { code: 'VALIDATION', message: 'an audio file is required' } });
      try {
        res.status(201).json({ id: await uploads.create(who.accountId, parts), pieceBytes: PIECE_BYTES });
      } catch (err) {
        refuse(res, err);
      }
    }),
  );

  router.put(
    '/uploads/:id/:part',
    express.raw({ type: () => true, limit: PIECE_BYTES }),
    signedInJson(deps, async (req, res, { who }) => {
      const part = String(req.params.part) as UploadPart;
      if (!UPLOAD_PARTS.includes(part))
        return void res.status(404).json({ error: { code: 'NOT_FOUND', message: 'no such part' } });
      const bytes = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      try {
        res.json({
          received: await uploads.write(who.accountId, String(req.params.id), part, Number(req.query.offset), bytes),
        });
      } catch (err) {
        refuse(res, err);
      }
    }),
  );

  router.post(
    '/uploads/:id/send',
    json,
    signedInJson(deps, async (req, res, { who, principal }) => {
      const body = (req.body ?? {}) as Record<string, unknown>;
      const key = typeof body.idempotencyKey === 'string' ? body.idempotencyKey : '';
      try {
        const { meta, files } = await uploads.complete(who.accountId, String(req.params.id));
        if (meta.result) return void res.status(202).json(meta.result);
        const form = new FormData();
        for (const [name, max] of Object.entries(TEXT_PARTS)) {
          const v = body[name];
          if (typeof v === 'string' && v !== '') form.append(name, v.slice(0, max));
        }
        for (const part of UPLOAD_PARTS) {
          const info = meta.parts[part];
          if (info && files[part]) form.append(part, await openAsBlob(files[part]!, { type: info.type }), info.name);
        }
        // The key goes as it came: the service checks its length (8 to 64) and answers VALIDATION.
        const up = await backend.upload(principal, key, form);
        const answer = (await up.json().catch(() => ({ error: { code: 'INTERNAL_ERROR' } }))) as {
          recording?: { id: string; url: string };
        };
        if (up.status === 202 && answer.recording) {
          const result = { ...answer, page: `${base}/recordings/${encodeURIComponent(answer.recording.id)}` };
          await uploads.sent(who.accountId, String(req.params.id), result);
          return void res.status(202).json(result);
        }
        const retryAfter = up.headers.get('retry-after');
        if (retryAfter) res.setHeader('Retry-After', retryAfter);
        res.status(up.status).json(answer);
      } catch (err) {
        refuse(res, err);
      }
    }),
  );

  router.delete(
    '/uploads/:id',
    signedInJson(deps, async (req, res, { who }) => {
      try {
        await uploads.remove(who.accountId, String(req.params.id));
        res.json({ deleted: true });
      } catch (err) {
        refuse(res, err);
      }
    }),
  );
  return router;
}
