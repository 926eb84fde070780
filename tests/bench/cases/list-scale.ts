/**
 * list-scale: GET /api/v1/recordings/ready over the archive of search-scale (lib/archive-loader.ts):
 * the first page again and again, then every page of the big account by its cursors down to the
 * last (keyset pages), one request at a time through the gateway. The walk must list each of the
 * account's meetings once, newest first.
 */
import { createToken } from '../lib/admin';
import { ARCHIVE_SERVICES, benchArchive, conditionLines } from '../lib/archive-report';
import { summarize, timedGet } from '../lib/latency';
import { fmt } from '../lib/report';
import { BenchError, type BenchCase, type CaseContext, type CaseReport } from '../lib/types';

const TARGET_P99_MS = 20;
const FIRST_PAGE_RUNS = 200;
const PAGE = 20;

interface ListPage {
  items: Array<{ id: string; createdAt: string }>;
  nextCursor: string | null;
}

export const listScaleCase: BenchCase = {
  name: 'list-scale',
  description: 'GET /recordings/ready first and deep pages at 100,000 meetings (keyset cursors)',
  implemented: true,
  services: ARCHIVE_SERVICES,
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const archive = await benchArchive(ctx);
    const token = (
      await createToken(gateway, archive.bigAccountId, {
        name: 'bench list',
        scopes: ['recordings:read'],
        expiresInDays: 30,
      })
    ).value;
    const headers = { Authorization: `Bearer ${token}` };
    const base = `${gateway}/api/v1/recordings/ready?limit=${PAGE}`;

    for (let i = 0; i < 10; i++) await timedGet(base, headers); // warm-up
    const first: number[] = [];
    for (let i = 0; i < FIRST_PAGE_RUNS; i++) first.push((await timedGet(base, headers)).ms);

    const deep: number[] = [];
    const seen = new Set<string>();
    let previous = Infinity;
    let cursor: string | null = null;
    do {
      ctx.checkAborted();
      const r: { ms: number; body: ListPage } = await timedGet<ListPage>(
        cursor ? `${base}&cursor=${encodeURIComponent(cursor)}` : base,
        headers,
      );
      deep.push(r.ms);
      for (const it of r.body.items) {
        const at = Date.parse(it.createdAt);
        if (seen.has(it.id) || at > previous) throw new BenchError(`list walk: ${it.id} repeated or out of order`);
        seen.add(it.id);
        previous = at;
      }
      cursor = r.body.nextCursor;
    } while (cursor);
    if (seen.size !== archive.shape.bigAccountMeetings)
      throw new BenchError(
        `list walk listed ${seen.size} meetings, not the account's ${archive.shape.bigAccountMeetings}`,
      );

    const f = summarize(first);
    const d = summarize(deep);
    const lastTenth = summarize(deep.slice(Math.floor(deep.length * 0.9)));
    const all = summarize([...first, ...deep]);
    const row = (label: string, s: ReturnType<typeof summarize>) => [
      label,
      fmt.int(s.n),
      fmt.ms(s.p50),
      fmt.ms(s.p99),
      fmt.ms(s.max),
    ];
    return {
      tables: [
        {
          title: `list-scale — GET /api/v1/recordings/ready?limit=${PAGE} through the gateway, one request at a time, big account`,
          table: {
            headers: ['pages', 'requests', 'p50 ms', 'p99 ms', 'max ms'],
            rows: [
              row('first page', f),
              row('every page, first to last', d),
              row('deepest tenth of the pages', lastTenth),
              row('all', all),
            ],
          },
        },
      ],
      lines: conditionLines(archive),
      data: { archive, first: f, deep: d, lastTenth, all },
      summary: `first page p99 ${fmt.ms(f.p99)} ms, deepest pages p99 ${fmt.ms(lastTenth.p99)} ms, all p99 ${fmt.ms(all.p99)} ms`,
      targets: [
        {
          label: `list p99 < ${TARGET_P99_MS} ms, first and deep pages, ${archive.shape.meetings.toLocaleString('en-US')} meetings`,
          pass: all.p99 < TARGET_P99_MS,
          measured: `p99 ${fmt.ms(all.p99)} ms over ${all.n} requests (deepest tenth ${fmt.ms(lastTenth.p99)} ms)`,
        },
      ],
    };
  },
};
