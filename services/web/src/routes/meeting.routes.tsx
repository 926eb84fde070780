import express, { Router, type Request, type Response } from 'express';
import { signedIn, sendPage, q, type Ctx, type PageDeps } from './context';
import { BackendError } from '../services/backend.client';
import { meetingText, type MeetingMessages } from '../i18n/meeting-messages';
import { NotFoundView, statusLabel, type MeetingStatus } from '../views/pages.views';
import {
  DeletedView,
  MeetingPageView,
  TrashView,
  type DigestSection,
  type MeetingPage,
  type Speaker,
  type Turn,
} from '../views/meeting.views';
import { NamingView, type Voice } from '../views/naming.view';
import { askPanelOf } from './ask.routes';
import { leftEarly, passAudioOn } from './pass-on';

type SignedCtx = Ctx & { principal: string };

/** The recordings service's app route for the owner: status, times, voices with clips, the turns. */
interface Sheet {
  recording: MeetingStatus & { error: { code: string } | null; recordedAt: string; durationSeconds: number | null };
  voices: Voice[];
  segments: Turn[];
  /** Names the account gave speakers in its other meetings. */
  knownNames?: string[];
  /** Whether the meeting still has its audio. */
  audio: boolean;
}
interface Bundle {
  recording: {
    id: string;
    displayTitle: string;
    subtitle: string | null;
    recordedAt: string;
    durationSeconds: number | null;
    series: { id: string; name: string } | null;
    access: 'owner' | 'member';
  };
  transcript: { speakers: Speaker[]; segments: Turn[]; language: string | null };
  digest: { content: DigestSection[]; language: string | null };
}

/** A refusal of the service as a message of the page (never a 500 for something the person can fix). */
function refusal(m: MeetingMessages, code: string | undefined): string | null {
  if (!code) return null;
  return (
    (
      {
        NOT_NAMING: m.errorNotNaming,
        NOT_READY: m.errorNotReady,
        VALIDATION: m.errorVoices,
        RATE_LIMITED: m.errorRateLimited,
        'no-smtp': m.errorNoSmtp,
        'no-email': m.errorNoEmail,
        'empty-list': m.errorEmptyList,
      } as Record<string, string>
    )[code] ?? m.errorGenericAction
  );
}

/**
 * The meeting page, the naming sheet and what their forms do. Every change is the recordings
 * service's own app route (the admin API's meeting operations, ARCHITECTURE.md section 7) called
 * with the session's principal: the service decides and scopes to the account; the app only shows.
 */
export function meetingRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base, backend } = deps;
  const form = express.urlencoded({ extended: false, limit: '64kb', parameterLimit: 200 });
  const idOf = (req: Request) => encodeURIComponent(String(req.params.id));
  const pageOf = (req: Request) => `${base}/recordings/${idOf(req)}`;
  const notFound = (res: Response, ctx: Ctx) =>
    sendPage(res, ctx, ctx.s.t.notFoundTitle, <NotFoundView s={ctx.s} base={base} />, 404);
  const is404 = (err: unknown) => err instanceof BackendError && err.status === 404;

  /** The sheet (appGetMeetingSheet): the contract leaves its recording and turns open; recordings writes them as Sheet says. */
  const sheetOf = (principal: string, id: string) =>
    backend.operation('appGetMeetingSheet', principal, { params: { id } }).then((x) => x as Sheet);

  /** The owner's view (the sheet, and the bundle once READY), else a joined series' member's (the bundle), else null. */
  async function load(ctx: SignedCtx, id: string): Promise<{ sheet: Sheet | null; bundle: Bundle | null } | null> {
    const sheet = await sheetOf(ctx.principal, id).catch((err) => {
      if (is404(err)) return null;
      throw err;
    });
    if (sheet && sheet.recording.status !== 'READY') return { sheet, bundle: null };
    const bundle = await backend
      .operation('getRecordingBundle', ctx.principal, { params: { id } })
      .then((x): Bundle | null => ('text' in x ? null : x))
      .catch((err) => {
        if (is404(err) || (err instanceof BackendError && err.status === 409)) return null;
        throw err;
      });
    return sheet || bundle ? { sheet, bundle } : null;
  }

  router.get(
    '/recordings/:id',
    signedIn(deps, async (req, res, ctx) => {
      const id = String(req.params.id);
      const found = await load(ctx, id);
      if (!found) {
        // The owner's own deleted meeting: still 404, but the page says where it is and offers it back.
        const { items } = await backend.operation('appListTrash', ctx.principal);
        if (!items.some((x) => x.id === id)) return notFound(res, ctx);
        return sendPage(
          res,
          ctx,
          meetingText(ctx.s.locale).deletedTitle,
          <DeletedView s={ctx.s} base={base} viewer={ctx.viewer} id={id} />,
          404,
        );
      }
      const { sheet, bundle } = found;
      const m = meetingText(ctx.s.locale);
      const ownedSeries = sheet
        ? await backend.operation('listReadableSeries', ctx.principal).then(
            (x) => x.items.filter((i) => i.role === 'owner'),
            () => [],
          )
        : [];
      const status = sheet?.recording ?? {
        id: bundle!.recording.id,
        status: 'READY',
        title: bundle!.recording.displayTitle,
        naming: null,
        error: null,
      };
      const p: MeetingPage = {
        status,
        displayTitle: bundle?.recording.displayTitle ?? status.title,
        subtitle: bundle?.recording.subtitle ?? null,
        recordedAt: bundle?.recording.recordedAt ?? sheet?.recording.recordedAt ?? null,
        durationSeconds: bundle?.recording.durationSeconds ?? sheet?.recording.durationSeconds ?? null,
        speakers: bundle?.transcript.speakers ?? sheet?.voices.map((v) => ({ label: v.label, name: v.name })) ?? [],
        turns: bundle?.transcript.segments ?? sheet?.segments ?? [],
        digest: bundle?.digest.content ?? null,
        language: { transcript: bundle?.transcript.language ?? null, digest: bundle?.digest.language ?? null },
        owner: sheet !== null,
        audioKept: sheet?.audio ?? false,
        series: bundle?.recording.series ?? null,
        ownedSeries,
        notice: q(req, 'done')
          ? m.saved
          : /^\d{1,3}$/.test(q(req, 'emailed') ?? '')
            ? m.f('emailSent', { n: ctx.s.number(Number(q(req, 'emailed'))) })
            : null,
        error: null,
        tab: 'meeting',
        ask: null,
        shares: null,
        email: null,
      };
      if (q(req, 'tab') === 'ask' && status.status === 'READY') {
        p.tab = 'ask';
        p.ask = await askPanelOf(deps, ctx, req, 'recordings', status.id, {
          turns: p.turns,
          speakers: p.speakers,
          audio: p.owner && p.audioKept,
        });
      } else {
        p.error = refusal(m, q(req, 'error'));
        if (p.owner && status.status === 'READY')
          p.shares = await deps.shares.repo.ofMeeting(ctx.who.accountId, status.id);
        if (status.status === 'READY') {
          // The series' list is offered to the series' owner only (the account service checks it again).
          const series = p.series && ownedSeries.some((o) => o.id === p.series?.id) ? p.series : null;
          p.email = { seriesName: series?.name ?? null };
        }
      }
      sendPage(
        res,
        ctx,
        p.displayTitle ?? ctx.s.t.untitled,
        <MeetingPageView s={ctx.s} base={base} viewer={ctx.viewer} p={p} />,
      );
    }),
  );

  // naming.url: the sheet at NAMING; opened after the meeting moved on, it just opens the meeting.
  // Opening it moves naming.deadline later (the recordings service decides by how much).
  router.get(
    '/recordings/:id/naming',
    signedIn(deps, async (req, res, ctx) => {
      const opened = await backend
        .operation('appOpenNamingSheet', ctx.principal, { params: { id: String(req.params.id) } })
        .catch((err) => {
          if (is404(err)) return null;
          throw err;
        });
      if (!opened) return notFound(res, ctx);
      const status = opened.status;
      // Before the transcript, the sheet waits (and follows the meeting); after NAMING, the meeting.
      if (status !== 'NAMING' && status !== 'QUEUED' && status !== 'TRANSCRIBING')
        return res.redirect(303, pageOf(req));
      const [sheet, known] = await Promise.all([
        sheetOf(ctx.principal, String(req.params.id)),
        status === 'NAMING' ? knownNames(ctx) : Promise.resolve([]),
      ]);
      const error = refusal(meetingText(ctx.s.locale), q(req, 'error'));
      const live =
        sheet.recording.status === 'NAMING'
          ? null
          : { status, label: statusLabel(ctx.s.t, status), url: `${pageOf(req)}/status.json` };
      sendPage(
        res,
        ctx,
        ctx.s.t.namingTitle,
        <NamingView
          s={ctx.s}
          base={base}
          viewer={ctx.viewer}
          id={sheet.recording.id}
          voices={sheet.voices}
          error={error}
          live={live}
          knownNames={[...new Set([...known, ...(sheet.knownNames ?? [])])].slice(0, 200)}
          deadline={opened.naming?.deadline ?? null}
        />,
      );
    }),
  );

  /** Memory's people (their notes are names), when memory is on; nothing when it cannot be read. */
  async function knownNames(ctx: SignedCtx): Promise<string[]> {
    const memory = await backend.operation('listMemory', ctx.principal).catch(() => null);
    return (memory?.items ?? []).filter((i) => i.category === 'PEOPLE').map((i) => i.text);
  }

  // "These two voices are one person": the service merges them; back to the sheet (one voice fewer).
  router.post(
    '/recordings/:id/voices/merge',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const b = (req.body ?? {}) as Record<string, unknown>;
      const text = (v: unknown) => (typeof v === 'string' ? v.slice(0, 100) : '');
      const sheet = `${pageOf(req)}/naming`;
      try {
        await backend.operation('appMergeVoices', ctx.principal, {
          params: { id: String(req.params.id) },
          body: { from: text(b.from), into: text(b.into) },
        });
      } catch (err) {
        if (is404(err)) return notFound(res, ctx);
        if (!(err instanceof BackendError) || err.status >= 500) throw err;
        return res.redirect(303, `${sheet}?error=${encodeURIComponent(err.code)}`);
      }
      res.redirect(303, sheet);
    }),
  );

  // The live status the page's script polls while the meeting is in progress.
  router.get(
    '/recordings/:id/status.json',
    signedIn(deps, async (req, res, ctx) => {
      try {
        const s = await backend.operation('getRecordingStatus', ctx.principal, {
          params: { id: String(req.params.id) },
        });
        res.json({ status: s.status, label: statusLabel(ctx.s.t, s.status) });
      } catch (err) {
        if (!is404(err)) throw err;
        res.status(404).json({ error: { code: 'NOT_FOUND' } });
      }
    }),
  );

  // The audio (the owner's only), by range requests passed to the recordings service as they are.
  router.get(
    '/recordings/:id/audio',
    signedIn(deps, async (req, res, ctx) => {
      const up = await backend.stream(
        'appGetMeetingAudio',
        ctx.principal,
        {
          params: { id: String(req.params.id) },
          headers: typeof req.headers.range === 'string' ? { range: req.headers.range } : {},
        },
        leftEarly(res),
      );
      await passAudioOn(up, res, { 'Cache-Control': 'private, no-store' });
    }),
  );

  for (const format of ['md', 'json'] as const) {
    router.get(
      `/recordings/:id/bundle.${format}`,
      signedIn(deps, async (req, res, ctx) => {
        const up = await backend.stream('getRecordingBundle', ctx.principal, {
          params: { id: String(req.params.id) },
          query: format === 'md' ? { format: 'markdown' } : {},
        });
        if (!up.ok) await up.body?.cancel();
        if (up.status === 404) return notFound(res, ctx);
        if (!up.ok) return res.redirect(303, `${pageOf(req)}?error=NOT_READY`);
        res.setHeader('Content-Type', up.headers.get('content-type') ?? 'application/octet-stream');
        res.setHeader(
          'Content-Disposition',
          `attachment; filename="meeting-${String(req.params.id).replace(/[^\w-]/g, '')}.${format}"`,
        );
        res.send(Buffer.from(await up.arrayBuffer()));
      }),
    );
  }

  /**
   * A form's change: the service's own operation (`call`, the meeting's operation of the admin table
   * where the gateway forwards it); 404 as a missing page, a refusal back to the page with its message.
   */
  const change = (
    call: (principal: string, req: Request, b: Record<string, string>) => Promise<unknown>,
    after: (req: Request) => string,
  ) =>
    signedIn(deps, async (req, res, ctx) => {
      const b = (req.body ?? {}) as Record<string, string>;
      try {
        await call(ctx.principal, req, b);
      } catch (err) {
        if (is404(err)) return notFound(res, ctx);
        if (!(err instanceof BackendError) || err.status >= 500) throw err;
        const back = b.from === 'naming' ? `${pageOf(req)}/naming` : pageOf(req);
        return res.redirect(303, `${back}?error=${encodeURIComponent(err.code)}`);
      }
      res.redirect(303, after(req));
    });
  const meeting = (req: Request) => ({ id: String(req.params.id) });
  const saved = (req: Request) => `${pageOf(req)}?done=1`;
  const text = (v: unknown, max: number) => (typeof v === 'string' ? v.slice(0, max) : '');

  router.post(
    '/recordings/:id/title',
    form,
    change(
      (p, r, b) =>
        backend.operation('adminUpdateRecording', p, {
          params: meeting(r),
          body: { title: text(b.title, 200).trim() || null },
        }),
      saved,
    ),
  );
  router.post(
    '/recordings/:id/series',
    form,
    change(
      (p, r, b) =>
        backend.operation('adminUpdateRecording', p, {
          params: meeting(r),
          body: { seriesId: text(b.seriesId, 100) || null },
        }),
      saved,
    ),
  );
  router.post(
    '/recordings/:id/speakers',
    form,
    change((p, r, b) => {
      const names: Record<string, string> = {};
      for (const [k, v] of Object.entries(b))
        if (k.startsWith('name.') && typeof v === 'string') names[k.slice(5, 105)] = v.slice(0, 100);
      return backend.operation('adminNameSpeakers', p, { params: meeting(r), body: { names } });
    }, saved),
  );
  router.post(
    '/recordings/:id/segments/:index',
    form,
    change(
      (p, r, b) =>
        backend.operation('adminEditSegment', p, {
          params: { ...meeting(r), index: String(r.params.index) },
          body: { text: text(b.text, 5000) },
        }),
      (r) => `${saved(r)}#turn-${encodeURIComponent(String(r.params.index))}`,
    ),
  );
  router.post(
    '/recordings/:id/regenerate',
    form,
    change((p, r) => backend.operation('adminRegenerateDigest', p, { params: meeting(r) }), saved),
  );
  router.post(
    '/recordings/:id/recheck',
    form,
    change((p, r) => backend.operation('adminRecheckRecording', p, { params: meeting(r) }), saved),
  );
  router.post(
    '/recordings/:id/restore',
    form,
    change((p, r) => backend.operation('adminRestoreRecording', p, { params: meeting(r) }), saved),
  );
  // "Email the summary": the account service sends it (and limits it); its outcome comes back as the page's message.
  router.post(
    '/recordings/:id/email-summary',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const to = (req.body as Record<string, string> | undefined)?.to === 'series' ? 'series' : 'me';
      let sent: { outcome: string; recipients: number };
      try {
        sent = await backend.operation('appEmailSummary', ctx.principal, {
          params: { id: String(req.params.id) },
          body: { to },
        });
      } catch (err) {
        if (is404(err)) return notFound(res, ctx);
        if (!(err instanceof BackendError) || err.status >= 500) throw err;
        return res.redirect(303, `${pageOf(req)}?error=${encodeURIComponent(err.code)}#email-h`);
      }
      const after = sent.outcome === 'sent' ? `emailed=${sent.recipients}` : `error=${sent.outcome}`;
      res.redirect(303, `${pageOf(req)}?${after}#email-h`);
    }),
  );
  router.post(
    '/recordings/:id/delete',
    form,
    signedIn(deps, async (req, res, ctx) => {
      if ((req.body as Record<string, string> | undefined)?.confirm !== 'yes') return res.redirect(303, pageOf(req));
      try {
        await backend.operation('adminDeleteRecording', ctx.principal, { params: meeting(req) });
      } catch (err) {
        if (is404(err)) return notFound(res, ctx);
        throw err;
      }
      res.redirect(303, `${pageOf(req)}/deleted`);
    }),
  );
  // The trash: the account's deleted meetings (the recordings service keeps them TRASH_DAYS, then purges).
  router.get(
    '/trash',
    signedIn(deps, async (_req, res, ctx) => {
      const trash = await backend.operation('appListTrash', ctx.principal);
      const m = meetingText(ctx.s.locale);
      sendPage(
        res,
        ctx,
        m.trashTitle,
        <TrashView s={ctx.s} base={base} viewer={ctx.viewer} days={trash.trashDays} items={trash.items} />,
      );
    }),
  );
  router.get(
    '/recordings/:id/deleted',
    signedIn(deps, async (req, res, ctx) => {
      sendPage(
        res,
        ctx,
        meetingText(ctx.s.locale).deletedTitle,
        <DeletedView s={ctx.s} base={base} viewer={ctx.viewer} id={String(req.params.id)} />,
      );
    }),
  );
  return router;
}
