import { Router, type Request } from 'express';
import { signedIn, sendPage, q, type PageDeps } from './context';
import { BackendError } from '../services/backend.client';
import { meetingText } from '../i18n/meeting-messages';
import { NotFoundView } from '../views/pages.views';
import { KINDS, MeetingsView, SeriesListView, SeriesPageView, type ListedMeeting, type ListedSeries, type MeetingFilters } from '../views/lists.views';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filters as typed, each kept only when it is well formed (a bad one is ignored, never a 500). */
function filtersOf(req: Request): MeetingFilters {
  const day = (v: string | undefined) => (v && DAY.test(v) && !Number.isNaN(Date.parse(v)) ? v : '');
  const kind = q(req, 'kind') ?? '';
  return {
    q: (q(req, 'q', 200) ?? '').trim(),
    seriesId: (q(req, 'seriesId', 64) ?? '').replace(/[^\w-]/g, ''),
    kind: (KINDS as readonly string[]).includes(kind) ? kind : '',
    from: day(q(req, 'from', 10)),
    to: day(q(req, 'to', 10)),
  };
}

/**
 * The meetings list (the list and search routes of the recordings service, with the session's
 * principal), the series list and a series' page.
 */
export function listsRoutes(deps: PageDeps): Router {
  const router = Router();
  const { base, backend } = deps;
  const readable = (principal: string) =>
    backend.operation('listReadableSeries', principal).then((x) => x.items, () => [] as ListedSeries[]);

  router.get('/meetings', signedIn(deps, async (req, res, ctx) => {
    const f = filtersOf(req);
    const cursor = (q(req, 'cursor', 64) ?? '').replace(/[^\w.-]/g, '');
    // With words: the search route (it filters by series, kind and dates itself); without: the list
    // of finished meetings, whose kind and dates the app filters on the page it got.
    const search = f.q !== '';
    const params = new URLSearchParams(search ? { q: f.q } : { limit: '100' });
    if (f.seriesId) params.set('seriesId', f.seriesId);
    const from = f.from ? `${f.from}T00:00:00Z` : '';
    const to = f.to ? `${f.to}T23:59:59Z` : '';
    if (search && f.kind) params.set('kind', f.kind);
    if (search && from) params.set('from', from);
    if (search && to) params.set('to', to);
    if (cursor) params.set('cursor', cursor);
    let page: { items: ListedMeeting[]; nextCursor: string | null } = { items: [], nextCursor: null };
    try {
      page = await backend.call('recordings', ctx.principal, 'GET', `/recordings/${search ? 'search' : 'ready'}?${params}`);
    } catch (err) {
      // A filter the service refuses (a word-less search, a series not readable) shows no meetings.
      if (!(err instanceof BackendError) || err.status >= 500) throw err;
    }
    if (!search) {
      page.items = page.items.filter((x) => (!f.kind || x.kind === f.kind) && (!from || Date.parse(x.recordedAt) >= Date.parse(from)) && (!to || Date.parse(x.recordedAt) <= Date.parse(to)));
    }
    const nextParams = new URLSearchParams(Object.entries(f).filter(([, v]) => v !== ''));
    if (page.nextCursor) nextParams.set('cursor', page.nextCursor);
    const next = page.nextCursor ? `${base}/meetings?${nextParams}` : null;
    const series = await readable(ctx.principal);
    sendPage(res, ctx, meetingText(ctx.s.locale).meetingsTitle, <MeetingsView s={ctx.s} base={base} f={f} series={series} items={page.items} next={next} />);
  }));

  router.get('/series', signedIn(deps, async (_req, res, ctx) => {
    const items = await readable(ctx.principal);
    sendPage(res, ctx, meetingText(ctx.s.locale).seriesListTitle, <SeriesListView s={ctx.s} base={base} items={items} />);
  }));

  // The series `url` the API hands out: its meetings, for its owner and its members.
  router.get('/series/:id', signedIn(deps, async (req, res, ctx) => {
    const id = encodeURIComponent(String(req.params.id));
    try {
      const { series } = await backend.operation('getSeries', ctx.principal, { params: { id: String(req.params.id) } });
      const { items } = await backend.call<{ items: ListedMeeting[] }>('recordings', ctx.principal, 'GET', `/recordings/ready?seriesId=${id}&limit=100`);
      const listed: ListedSeries = { id: series.id, name: series.name, role: series.access, meetingCount: series.meetingCount };
      sendPage(res, ctx, series.name, <SeriesPageView s={ctx.s} base={base} series={listed} items={items} />);
    } catch (err) {
      if (!(err instanceof BackendError) || err.status !== 404) throw err;
      sendPage(res, ctx, ctx.s.t.notFoundTitle, <NotFoundView s={ctx.s} base={base} />, 404);
    }
  }));
  return router;
}
