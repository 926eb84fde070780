import express, { Router, type Request } from 'express';
import { seriesRefusal, seriesText } from '../i18n/series-messages';
import { askText } from '../i18n/ask-messages';
import { NewSeriesForm, SeriesKeyterms, SeriesSettings } from '../views/series-manage.view';
import { DeleteSeries, SeriesEmailList, SeriesMembers } from '../views/series-sharing.view';
import { AskTab } from '../views/ask.view';
import { Tabs } from '../views/meeting.views';
import { Notice } from '../views/layout';
import { askPanelOf } from './ask.routes';
import { citedMeetingNames } from '../domain/cited-meetings';
import { signedIn, signedInJson, sendPage, q, type PageDeps } from './context';
import { unfinishedMeetings } from '../services/in-progress';
import { BackendError } from '../services/backend.client';
import { meetingText } from '../i18n/meeting-messages';
import { searchWords } from '@mm/text';
import { DATE_CALENDARS, OUTPUT_LANGUAGES, RECORDING_KINDS, TITLE_STYLES, type OperationInput } from '@mm/contract';
import { NotFoundView } from '../views/pages.views';
import { readDay } from '../domain/day-input';
import {
  KINDS,
  MeetingsView,
  unfinishedSignature,
  SeriesListView,
  SeriesPageView,
  type ListedMeeting,
  type ListedSeries,
  type MeetingFilters,
} from '../views/lists.views';

/** Search results per page. */
const PAGE = 20;

/** A page of meetings: the list of finished ones, or the search's; `refused`: the service's code for filters it refused. */
type Page = { items: ListedMeeting[]; nextCursor: string | null; refused?: string };
/** The app's search query (appSearchMeetings), as the contract types it. */
type SearchQuery = OperationInput<'appSearchMeetings'>['query'];
const isKind = (k: string): k is NonNullable<SearchQuery['kind']> => (KINDS as readonly string[]).includes(k);

/** The filters as typed, each kept only when it is well formed (a bad one is ignored, never a 500). */
function filtersOf(req: Request): MeetingFilters {
  // Typed in Persian or Latin digits, Gregorian or Solar Hijri (the Persian page's text field); kept Gregorian.
  const day = (v: string | undefined) => (v ? (readDay(v) ?? '') : '');
  const kind = q(req, 'kind') ?? '';
  return {
    q: (q(req, 'q', 200) ?? '').trim(),
    seriesId: (q(req, 'seriesId', 64) ?? '').replace(/[^\w-]/g, ''),
    kind: (KINDS as readonly string[]).includes(kind) ? kind : '',
    from: day(q(req, 'from', 20)),
    to: day(q(req, 'to', 20)),
  };
}

/**
 * The meetings list (the list and search routes of the recordings service, with the session's
 * principal), the series list and a series' page.
 */
export function listsRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base, backend } = deps;
  const form = express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 10 });
  const readable = (principal: string) =>
    backend.operation('listReadableSeries', principal).then(
      (x) => x.items,
      () => [] as ListedSeries[],
    );

  /** One scope of the app's search (the account's meetings, or one series'); a refused one finds nothing, and says why. */
  const searchOne = async (principal: string, query: SearchQuery): Promise<Page> => {
    try {
      return await backend.operation('appSearchMeetings', principal, { query });
    } catch (err) {
      if (!(err instanceof BackendError) || err.status >= 500) throw err;
      return { items: [], nextCursor: null, refused: err.code };
    }
  };
  /**
   * The search of the meetings page. With a series picked: that series' meetings, page by page.
   * Without: the account's meetings and those of every series it can read, merged newest first
   * (one page of each scope; the account's own scope pages on).
   */
  const searchAll = async (principal: string, f: MeetingFilters, from: string, to: string, cursor: string) => {
    const query = (seriesId?: string): SearchQuery => ({
      q: f.q,
      limit: PAGE,
      ...(seriesId ? { seriesId } : {}),
      ...(isKind(f.kind) ? { kind: f.kind } : {}),
      ...(from ? { from } : {}),
      ...(to ? { to } : {}),
      ...(cursor ? { cursor } : {}),
    });
    if (f.seriesId) return searchOne(principal, query(f.seriesId));
    const own = await searchOne(principal, query());
    if (cursor) return own;
    const others = await Promise.all((await readable(principal)).map((x) => searchOne(principal, query(x.id))));
    const byId = new Map<string, ListedMeeting>();
    for (const x of [own, ...others].flatMap((scope) => scope.items)) if (!byId.has(x.id)) byId.set(x.id, x);
    const items = [...byId.values()].sort((a, b) => Date.parse(b.recordedAt) - Date.parse(a.recordedAt)).slice(0, PAGE);
    return { items, nextCursor: own.nextCursor, ...(own.refused ? { refused: own.refused } : {}) };
  };

  router.get(
    '/meetings',
    signedIn(deps, async (req, res, ctx) => {
      const f = filtersOf(req);
      const cursor = (q(req, 'cursor', 64) ?? '').replace(/[^\w.-]/g, '');
      // With words: the app's search (the public search's words and normalisation, each item with the
      // moment its snippet was said), over the account's meetings and each readable series'
      // (a joined series' meetings are not the account's); without: the list of finished meetings,
      // whose kind and dates the app filters on the page it got.
      const search = f.q !== '';
      const from = f.from ? `${f.from}T00:00:00Z` : '';
      const to = f.to ? `${f.to}T23:59:59Z` : '';
      let page: Page = { items: [], nextCursor: null };
      if (search) page = await searchAll(ctx.principal, f, from, to, cursor);
      else {
        try {
          page = await backend.operation('listReadyRecordings', ctx.principal, {
            query: { limit: 100, ...(f.seriesId ? { seriesId: f.seriesId } : {}), ...(cursor ? { cursor } : {}) },
          });
        } catch (err) {
          // A filter the service refuses (a series not readable, a cursor it did not make) lists
          // nothing, and the page says so.
          if (!(err instanceof BackendError) || err.status >= 500) throw err;
          page.refused = err.code;
        }
      }
      if (!search) {
        page.items = page.items.filter(
          (x) =>
            (!f.kind || x.kind === f.kind) &&
            (!from || Date.parse(x.recordedAt) >= Date.parse(from)) &&
            (!to || Date.parse(x.recordedAt) <= Date.parse(to)),
        );
      }
      const nextParams = new URLSearchParams(Object.entries(f).filter(([, v]) => v !== ''));
      if (page.nextCursor) nextParams.set('cursor', page.nextCursor);
      const next = page.nextCursor ? `${base}/meetings?${nextParams}` : null;
      const series = await readable(ctx.principal);
      // The first page of the plain list also shows the meetings not finished, followed live.
      const unfinished =
        !search && !cursor
          ? (await unfinishedMeetings(backend, ctx.principal)).filter((x) => !f.seriesId || x.seriesId === f.seriesId)
          : null;
      sendPage(
        res,
        ctx,
        meetingText(ctx.s.locale).meetingsTitle,
        <MeetingsView
          s={ctx.s}
          base={base}
          f={f}
          series={series}
          items={page.items}
          words={search ? searchWords(f.q) : []}
          next={next}
          unfinished={unfinished}
          refused={page.refused ?? null}
        />,
      );
    }),
  );

  // What the meetings list's script polls: the signature of the unfinished meetings (a change reloads).
  router.get(
    '/meetings/live.json',
    signedInJson(deps, async (req, res, { principal }) => {
      const seriesId = (q(req, 'seriesId', 64) ?? '').replace(/[^\w-]/g, '');
      const items = (await unfinishedMeetings(backend, principal)).filter((x) => !seriesId || x.seriesId === seriesId);
      res.json({ sig: unfinishedSignature(items) });
    }),
  );

  router.get(
    '/series',
    signedIn(deps, async (req, res, ctx) => {
      const t = seriesText(ctx.s.locale);
      // Switched off for the account (a rollout switch): said so, instead of "no series yet" and a
      // form every service would refuse.
      if (!ctx.who.features.series)
        return sendPage(res, ctx, meetingText(ctx.s.locale).seriesListTitle, <p>{t.seriesOff}</p>);
      const items = await readable(ctx.principal);
      // The create form's only free text is the name: a refusal of its fields is the name's rule.
      const code = q(req, 'error', 40);
      const error = code === 'VALIDATION' ? t.nameRule : seriesRefusal(t, code);
      sendPage(
        res,
        ctx,
        meetingText(ctx.s.locale).seriesListTitle,
        <>
          <Notice kind="ok" text={q(req, 'deleted') ? t.deleted : q(req, 'left') ? t.left : null} />
          <SeriesListView s={ctx.s} base={base} items={items} />
          <NewSeriesForm s={ctx.s} base={base} viewer={ctx.viewer} error={error} />
        </>,
      );
    }),
  );
  router.post(
    '/series',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const b = (req.body ?? {}) as Record<string, string>;
      try {
        const { series } = await backend.operation('createSeries', ctx.principal, {
          body: {
            name: String(b.name ?? '').slice(0, 200),
            titleStyle: b.titleStyle === 'TOPIC' ? 'TOPIC' : 'SESSION',
          },
        });
        res.redirect(303, `${base}/series/${encodeURIComponent(series.id)}?done=1`);
      } catch (err) {
        if (!(err instanceof BackendError) || err.status >= 500) throw err;
        res.redirect(303, `${base}/series?error=${encodeURIComponent(err.code)}`);
      }
    }),
  );
  router.post(
    '/series/:id/keyterms',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const b = (req.body ?? {}) as Record<string, string>;
      const page = `${base}/series/${encodeURIComponent(String(req.params.id))}`;
      const keyterms = String(b.keyterms ?? '')
        .slice(0, 6000)
        .split(/\r?\n/)
        .map((x) => x.trim())
        .filter(Boolean);
      try {
        await backend.operation('replaceSeriesKeyterms', ctx.principal, {
          params: { id: String(req.params.id) },
          body: { keyterms, inheritAccountKeyterms: b.inherit === 'yes' },
        });
        res.redirect(303, `${page}?done=1#keyterms`);
      } catch (err) {
        if (!(err instanceof BackendError) || err.status >= 500) throw err;
        if (err.status === 404)
          return sendPage(res, ctx, ctx.s.t.notFoundTitle, <NotFoundView s={ctx.s} base={base} />, 404);
        res.redirect(303, `${page}?error=${encodeURIComponent(err.code)}#keyterms`);
      }
    }),
  );

  // The owner's settings of a series: every field of the form is sent; the service keeps its rules (the name's).
  router.post(
    '/series/:id/settings',
    form,
    signedIn(deps, async (req, res, ctx) => {
      const b = (req.body ?? {}) as Record<string, string>;
      const page = `${base}/series/${encodeURIComponent(String(req.params.id))}`;
      const pick = <T extends string>(list: readonly T[], v: unknown): T | undefined => list.find((x) => x === v);
      const body: OperationInput<'updateSeries'>['body'] = {
        name: String(b.name ?? '').slice(0, 200),
        defaultKind: pick(RECORDING_KINDS, b.defaultKind),
        defaultOutputLanguage: pick(OUTPUT_LANGUAGES, b.defaultOutputLanguage),
        titleStyle: pick(TITLE_STYLES, b.titleStyle),
        dateCalendar: pick(DATE_CALENDARS, b.dateCalendar),
      };
      try {
        await backend.operation('updateSeries', ctx.principal, {
          params: { id: String(req.params.id) },
          body: Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)),
        });
        res.redirect(303, `${page}?done=1#settings`);
      } catch (err) {
        if (!(err instanceof BackendError) || err.status >= 500) throw err;
        if (err.status === 404)
          return sendPage(res, ctx, ctx.s.t.notFoundTitle, <NotFoundView s={ctx.s} base={base} />, 404);
        res.redirect(303, `${page}?settingsError=${encodeURIComponent(err.code)}#settings`);
      }
    }),
  );

  // The series `url` the API hands out: its meetings, for its owner and its members.
  router.get(
    '/series/:id',
    signedIn(deps, async (req, res, ctx) => {
      const id = encodeURIComponent(String(req.params.id));
      try {
        const { series } = await backend.operation('getSeries', ctx.principal, {
          params: { id: String(req.params.id) },
        });
        const { items } = await backend.operation('listReadyRecordings', ctx.principal, {
          query: { seriesId: series.id, limit: 100 },
        });
        const listed: ListedSeries = {
          id: series.id,
          name: series.name,
          role: series.access,
          meetingCount: series.meetingCount,
        };
        const path = `${base}/series/${id}`;
        const t = seriesText(ctx.s.locale);
        if (q(req, 'tab') === 'ask') {
          const names = citedMeetingNames(items, ctx.s.date);
          const meetings = Object.fromEntries(
            items.map((x) => [
              x.id,
              { title: names.get(x.id)!, url: `${base}/recordings/${encodeURIComponent(x.id)}` },
            ]),
          );
          const panel = await askPanelOf(deps, ctx, req, 'series', series.id, {
            turns: [],
            speakers: [],
            audio: false,
            meetings,
          });
          return sendPage(
            res,
            ctx,
            series.name,
            <>
              <Tabs s={ctx.s} path={path} tab="ask" first={meetingText(ctx.s.locale).navMeetings} />
              <AskTab s={ctx.s} a={askText(ctx.s.locale)} viewer={ctx.viewer} p={panel} series={true} />
            </>,
          );
        }
        const own =
          series.access === 'owner'
            ? await backend.operation('getSeriesKeyterms', ctx.principal, { params: { id: series.id } })
            : null;
        const error = q(req, 'error', 40);
        const emailError = q(req, 'emailError', 40);
        const people = await backend.operation('appListSeriesMembers', ctx.principal, { params: { id: series.id } });
        const emails = own
          ? (await backend.operation('appGetSeriesEmailList', ctx.principal, { params: { id: series.id } })).emails
          : [];
        sendPage(
          res,
          ctx,
          series.name,
          <>
            <Notice kind="ok" text={q(req, 'done') ? t.saved : null} />
            <Tabs s={ctx.s} path={path} tab="meeting" first={meetingText(ctx.s.locale).navMeetings} />
            <SeriesPageView s={ctx.s} base={base} series={listed} items={items} />
            <SeriesMembers
              s={ctx.s}
              viewer={ctx.viewer}
              path={path}
              owner={own !== null}
              selfId={ctx.who.accountId}
              members={people.members}
              openInvites={people.invites.length}
            />
            {own ? (
              <SeriesSettings
                s={ctx.s}
                viewer={ctx.viewer}
                action={`${path}/settings`}
                values={series}
                error={seriesRefusal(t, q(req, 'settingsError', 40))}
              />
            ) : null}
            {own ? (
              <SeriesKeyterms
                s={ctx.s}
                viewer={ctx.viewer}
                action={`${path}/keyterms`}
                keyterms={own.keyterms}
                inherit={own.inheritAccountKeyterms}
                notice={null}
                error={error ? t.GENERIC.replace('{code}', error.replace(/[^A-Z_]/g, '')) : null}
              />
            ) : null}
            {own ? (
              <SeriesEmailList
                s={ctx.s}
                viewer={ctx.viewer}
                action={`${path}/email-list`}
                emails={emails}
                error={emailError ? t.GENERIC.replace('{code}', emailError.replace(/[^A-Z_]/g, '')) : null}
              />
            ) : null}
            {own ? <DeleteSeries s={ctx.s} viewer={ctx.viewer} action={`${path}/delete`} /> : null}
          </>,
        );
      } catch (err) {
        if (!(err instanceof BackendError) || err.status !== 404) throw err;
        sendPage(res, ctx, ctx.s.t.notFoundTitle, <NotFoundView s={ctx.s} base={base} />, 404);
      }
    }),
  );
  return router;
}
