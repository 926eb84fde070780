import express, { Router, type Request, type Response } from 'express';
import { anyone, signedIn, sendPage, type Ctx, type PageDeps } from './context';
import { BackendError } from '../services/backend.client';
import { SHARE_EXPIRIES, type ShareExpiry } from '../services/share-links';
import { shareText } from '../i18n/share-messages';
import { NotFoundView } from '../views/pages.views';
import { ShareCreatedView, SharedMeetingView } from '../views/share.view';
import type { DigestSection, Speaker, Turn } from '../views/meeting.views';
import { leftEarly, passAudioOn } from './pass-on';

interface SharedBundle {
  recording: { title: string | null; recordedAt: string; durationSeconds: number | null };
  transcript: { speakers: Speaker[]; segments: Turn[]; language: string | null };
  digest: { content: DigestSection[]; language: string | null };
}

/**
 * Share links: the owner makes and revokes them on the meeting page; anyone with a live link
 * reads the meeting at `/s/<secret>` (and its audio when the owner ticked it). Revoked, expired,
 * unknown, or a meeting deleted since: 404, saying nothing.
 */
export function shareRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base, backend, shares } = deps;
  const form = express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 10 });
  const notFound = (res: Response, ctx: Ctx) =>
    sendPage(res, ctx, ctx.s.t.notFoundTitle, <NotFoundView s={ctx.s} base={base} />, 404);
  const idOf = (req: Request) => String(req.params.id);
  const pageOf = (req: Request) => `${base}/recordings/${encodeURIComponent(idOf(req))}`;

  /** The owner's ready meeting (the sheet route answers its owner only), else null. */
  /** The owner's ready meeting, and whether its audio is still kept (null: not the caller's, or not ready). */
  const ownReady = async (principal: string, id: string): Promise<{ audio: boolean } | null> => {
    const sheet = await backend.operation('appGetMeetingSheet', principal, { params: { id } }).catch((err: unknown) => {
      if (err instanceof BackendError && err.status === 404) return null;
      throw err;
    });
    // The sheet's recording is the meeting's status (the contract leaves the object open).
    const recording: { status?: unknown } | undefined = sheet?.recording;
    return recording?.status === 'READY' ? { audio: sheet?.audio ?? false } : null;
  };

  router.post(
    '/recordings/:id/shares',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const meeting = await ownReady(ctx.principal, idOf(req));
      if (!meeting) return notFound(res, ctx);
      const b = (req.body ?? {}) as Record<string, string>;
      const expiry: ShareExpiry = Object.hasOwn(SHARE_EXPIRIES, b.expiry ?? '') ? (b.expiry as ShareExpiry) : '7';
      // Audio deleted after the digest (the account's setting): a link cannot offer it.
      const withAudio = b.audio === 'yes' && meeting.audio;
      const { secret } = await shares.create(ctx.who.accountId, idOf(req), withAudio, expiry);
      sendPage(
        res,
        ctx,
        shareText(ctx.s.locale).shareCreatedTitle,
        <ShareCreatedView s={ctx.s} url={`${deps.appUrl}/s/${secret}`} back={`${pageOf(req)}#share`} />,
        201,
      );
    }),
  );

  router.post(
    '/recordings/:id/shares/:shareId/revoke',
    form,
    signedIn(deps, async (req, res, ctx) => {
      if (!(await shares.repo.revoke(ctx.who.accountId, idOf(req), String(req.params.shareId))))
        return notFound(res, ctx);
      res.redirect(303, `${pageOf(req)}?done=1#share`);
    }),
  );

  router.get(
    '/s/:secret',
    anyone(deps, async (req, res, ctx) => {
      const open = await shares.open(String(req.params.secret));
      const bundle = open
        ? await backend
            .operation('getRecordingBundle', open.principal, { params: { id: open.link.recordingId } })
            .then((b): SharedBundle | null => ('text' in b ? null : b))
            .catch((err: unknown) => {
              if (err instanceof BackendError && err.status < 500) return null;
              throw err;
            })
        : null;
      res.setHeader('X-Robots-Tag', 'noindex, nofollow');
      res.setHeader('Referrer-Policy', 'no-referrer');
      if (!open || !bundle) return notFound(res, ctx);
      const r = bundle.recording;
      // The audio the owner ticked, unless it was deleted after the digest since (their setting).
      const audio =
        open.link.includeAudio &&
        (await backend.operation('appGetMeetingSheet', open.principal, { params: { id: open.link.recordingId } }).then(
          (sheet) => sheet.audio,
          () => false,
        ));
      sendPage(
        res,
        ctx,
        r.title ?? shareText(ctx.s.locale).sharedTitle,
        <SharedMeetingView
          s={ctx.s}
          recordedAt={r.recordedAt}
          durationSeconds={r.durationSeconds}
          digest={bundle.digest.content}
          speakers={bundle.transcript.speakers}
          turns={bundle.transcript.segments}
          language={{ transcript: bundle.transcript.language, digest: bundle.digest.language }}
          audio={audio ? `${base}/s/${String(req.params.secret)}/audio` : null}
        />,
      );
    }),
  );

  router.get('/s/:secret/audio', async (req, res, next) => {
    try {
      const open = await shares.open(String(req.params.secret));
      if (!open || !open.link.includeAudio) return void res.status(404).type('text/plain').send('Not Found');
      const up = await backend.stream(
        'appGetMeetingAudio',
        open.principal,
        {
          params: { id: open.link.recordingId },
          headers: typeof req.headers.range === 'string' ? { range: req.headers.range } : {},
        },
        leftEarly(res),
      );
      await passAudioOn(up, res, { 'Cache-Control': 'private, no-store', 'Referrer-Policy': 'no-referrer' });
    } catch (err) {
      next(err);
    }
  });
  return router;
}
