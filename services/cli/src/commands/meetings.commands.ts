import { InvalidArgumentError, Option, type Command } from 'commander';
import { RECORDING_KINDS } from '@mm/contract';
import { quoteCitation, type Bundle, type Citation, type FeedItem, type MeetingMemory } from '@mm/sdk';
import { EXIT } from '../domain/exit-codes';
import { answerText, eventDetail } from '../domain/format';
import { watchInterruption } from '../interrupt';
import { CliError } from '../output';
import type { Ctx } from '../context';

type Run = (opts: Record<string, unknown>, fn: (ctx: Ctx) => Promise<number | void>) => Promise<void>;

/** A whole number option; anything else is a usage error before any request. */
const int = (v: string) => {
  if (!/^\d+$/.test(v.trim())) throw new InvalidArgumentError('not a whole number of 0 or more.');
  return Number(v);
};

/** list, bundle, search, ask, events. */
export function registerMeetingCommands(program: Command, run: Run): void {
  program
    .command('list')
    .description('finished meetings, newest first')
    .option('--limit <n>', 'page size 1 to 100', int)
    .option('--cursor <cursor>', 'nextCursor of the previous page')
    .option('--series <id>', 'only this series')
    .action((opts) =>
      run(opts, async (ctx) => {
        const page = await (await ctx.client()).listReady({
          limit: opts.limit as number | undefined,
          cursor: opts.cursor as string | undefined,
          seriesId: opts.series as string | undefined,
        });
        ctx.out.result(page, () => pageText(page, (i) => `${i.id} ${i.recordedAt} ${i.displayTitle}`));
      }),
    );

  program
    .command('bundle')
    .description('a finished meeting: digest, transcript and stats')
    .argument('<id>')
    .option('--markdown', 'as one Markdown document')
    .action((id: string, opts) =>
      run(opts, async (ctx) => {
        const mm = await ctx.client();
        if (opts.markdown) {
          const md = await mm.bundleMarkdown(id);
          ctx.out.result({ id, markdown: md }, () => md);
          return;
        }
        const b = await mm.bundle(id);
        ctx.out.result(b, () => JSON.stringify(b, null, 2));
      }),
    );

  program
    .command('search')
    .description('finished meetings in which every word appears')
    .argument('<query>')
    .option('--limit <n>', 'page size 1 to 50', int)
    .option('--cursor <cursor>', 'nextCursor of the previous page')
    .option('--series <id>', 'only this series')
    .addOption(new Option('--kind <kind>', 'only meetings of this kind').choices(RECORDING_KINDS))
    .option('--from <time>', 'earliest recordedAt, ISO 8601 with an offset (included)')
    .option('--to <time>', 'latest recordedAt, ISO 8601 with an offset (included)')
    .action((q: string, opts) =>
      run(opts, async (ctx) => {
        const page = await (await ctx.client()).search({
          q,
          limit: opts.limit as number | undefined,
          cursor: opts.cursor as string | undefined,
          seriesId: opts.series as string | undefined,
          kind: opts.kind as (typeof RECORDING_KINDS)[number] | undefined,
          from: opts.from as string | undefined,
          to: opts.to as string | undefined,
        });
        ctx.out.result(page, () =>
          page.items.length
            ? pageText(page, (i) => `${i.id} ${i.recordedAt} ${i.displayTitle}${i.snippet ? `\n    ${i.snippet}` : ''}`)
            : 'no meeting found',
        );
      }),
    );

  program
    .command('ask')
    .description('ask a meeting (ID QUESTION) or a series (--series ID QUESTION); spends minutes')
    .argument('<idOrQuestion>')
    .argument('[question]')
    .option('--series <id>', 'ask this series instead of one meeting')
    .option('--max-minutes <n>', 'refuse (nothing charged) above this price', int)
    .action((first: string, second: string | undefined, opts) =>
      run(opts, async (ctx) => {
        const seriesId = opts.series as string | undefined;
        if (!seriesId && !second)
          throw new CliError(
            'USAGE',
            'no question given: mm ask ID "QUESTION" (or mm ask --series ID "QUESTION")',
            EXIT.USAGE,
          );
        const mm = await ctx.client();
        const question = seriesId ? [first, second].filter(Boolean).join(' ') : (second ?? '');
        const input = { question, maxMinutes: opts.maxMinutes as number | undefined };
        const answer = seriesId ? await mm.askSeries(seriesId, input) : await mm.askRecording(first, input);
        const quoted = { ...answer, citations: await withQuotes(mm, seriesId ? undefined : first, answer.citations) };
        ctx.out.result(quoted, () => answerText(quoted));
      }),
    );

  program
    .command('events')
    .description('the events feed, oldest first, one line (or JSON line) per event; --follow keeps reading')
    .option('--after <cursor>', 'a cursor exactly as received, or latest')
    .option('--limit <n>', 'page size 1 to 500 (default 100); reads every page until caught up', int)
    .option('--follow', 'keep reading as events come; on SIGINT/SIGTERM prints the cursor to resume from')
    .action((opts) =>
      run(opts, async (ctx) => {
        const mm = await ctx.client();
        let cursor = opts.after as string | undefined;
        const interruption = opts.follow ? watchInterruption() : undefined;
        const feed = mm.followEvents({
          after: cursor,
          limit: opts.limit as number | undefined,
          untilCaughtUp: !opts.follow,
          idleMs: ctx.cfg.pollMaxSeconds * 1000,
          onCursor: (c) => (cursor = c),
          signal: interruption?.signal,
        });
        try {
          await printEvents(ctx, feed);
        } catch (err) {
          if (!interruption?.signal.aborted) throw err;
          const stop = await interruption.stopped;
          // The last JSON line is the cursor to resume from, as after a read to the end.
          if (ctx.out.json) ctx.out.result({ nextCursor: cursor ?? null, stoppedBy: stop.reason }, () => '');
          else ctx.out.info(`resume with: mm events --follow${cursor ? ` --after ${cursor}` : ''}`);
          return stop.exitCode;
        } finally {
          interruption?.dispose();
        }
        // One JSON line per event; the cursor to read on from comes last.
        if (ctx.out.json) ctx.out.result({ nextCursor: cursor }, () => '');
        else ctx.out.info(`next: --after ${cursor ?? ''}`);
      }),
    );
}

/** One line (or JSON line) per event or resync, as they come. */
async function printEvents(ctx: Ctx, feed: AsyncIterable<FeedItem>): Promise<void> {
  for await (const item of feed) {
    if (item.kind === 'resync')
      ctx.out.result(item, () => `cursor expired: ${item.ready.length} ready meetings; reading on from ${item.cursor}`);
    else
      ctx.out.result(
        item,
        () => `${item.event.occurredAt} ${item.event.type} ${item.event.recordingId}${eventDetail(item.event.data)}`,
      );
  }
}

/** A page's items, one line each, then `next: --cursor …` when there is more. */
function pageText<T>(page: { items: T[]; nextCursor?: string | null }, line: (item: T) => string): string {
  return [...page.items.map(line), ...(page.nextCursor ? [`next: --cursor ${page.nextCursor}`] : [])].join('\n');
}

/**
 * The citations with the words they cite, the end of the turn and the speaker's name, from the
 * bundles of the meetings cited (when the token may read them; else as answered).
 */
async function withQuotes(mm: MeetingMemory, meetingId: string | undefined, citations: Citation[]) {
  const ids = [...new Set(citations.map((c) => c.recordingId ?? meetingId!))];
  const bundles = new Map<string, Bundle>();
  await Promise.all(
    ids.map(async (id) => {
      try {
        bundles.set(id, await mm.bundle(id));
      } catch {
        // Not readable by this token: the citation stays as answered.
      }
    }),
  );
  return citations.map((c) => quoteCitation(c, bundles.get(c.recordingId ?? meetingId!)));
}
