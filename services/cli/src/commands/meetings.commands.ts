import path from 'node:path';
import type { Command } from 'commander';
import type { MeetingMemory, RecordingStatus, SubmitInput } from '@mm/sdk';
import { EXIT } from '../domain/exit-codes';
import { answerText } from '../domain/format';
import { progress } from '../progress';
import type { Ctx } from '../context';

type Run = (opts: Record<string, unknown>, fn: (ctx: Ctx) => Promise<number | void>) => Promise<void>;

const int = (v: string) => Number.parseInt(v, 10);

/** submit, status, list, bundle, search, ask, events. */
export function registerMeetingCommands(program: Command, run: Run): void {
  program
    .command('submit')
    .description('send meeting audio files; --wait shows each one until READY or FAILED')
    .argument('<files...>', 'audio files')
    .option('--title <title>', 'the meeting title')
    .option('--series <id>', 'file the meeting in this series')
    .option('--kind <kind>', 'MEETING, LECTURE, INTERVIEW, VOICE_MEMO or CALL')
    .option('--language <lang>', 'digest language: MATCH, FA or EN')
    .option('--naming <mode>', '`skip` never stops at NAMING')
    .option('--wait', 'wait until each meeting is READY or FAILED')
    .action((files: string[], opts) =>
      run(opts, async (ctx) => {
        const mm = await ctx.client();
        const bars = progress(Boolean(process.stderr.isTTY) && !ctx.out.json, ctx.out.info);
        const pollMs = ctx.cfg.pollMaxSeconds * 1000;
        const one = async (file: string) => {
          const p = bars.file(path.basename(file));
          const input: SubmitInput = {
            audio: path.resolve(ctx.cfg.cwd, file),
            title: opts.title as string | undefined,
            seriesId: opts.series as string | undefined,
            kind: opts.kind as SubmitInput['kind'],
            outputLanguage: opts.language as SubmitInput['outputLanguage'],
            naming: opts.naming as SubmitInput['naming'],
            onUploadProgress: (sent, total) => p.uploaded(sent, total),
          };
          const { recording } = await mm.submitRecording(input);
          p.status(recording.status, recording.id);
          if (!opts.wait) return { file, recording };
          const final = await mm.waitForReady(recording.id, {
            throughNaming: true,
            schedule: { firstMs: Math.min(5000, pollMs), maxMs: pollMs },
            onProgress: (s) => p.status(s.status, s.id),
          });
          return { file, recording, final };
        };
        let results;
        try {
          results = await Promise.all(files.map(one));
        } finally {
          bars.stop();
        }
        ctx.out.result(results, () =>
          results
            .map((r) => {
              const failure = r.final?.error ? ` ${r.final.error.code}${r.final.error.retryable ? ' (retryable)' : ''}` : '';
              return `${(r.final ?? r.recording).status} ${r.recording.id} ${r.file} (${r.recording.minutes} min)${failure}`;
            })
            .join('\n'),
        );
        return results.some((r) => r.final?.status === 'FAILED') ? EXIT.MEETING_FAILED : EXIT.OK;
      }),
    );

  program
    .command('status')
    .description("a meeting's status")
    .argument('<id>')
    .action((id: string, opts) =>
      run(opts, async (ctx) => {
        const s = await (await ctx.client()).status(id);
        ctx.out.result(s, () => statusLine(s));
      }),
    );

  program
    .command('list')
    .description('finished meetings, newest first')
    .option('--limit <n>', 'page size 1 to 100', int)
    .option('--cursor <cursor>', 'nextCursor of the previous page')
    .option('--series <id>', 'only this series')
    .action((opts) =>
      run(opts, async (ctx) => {
        const page = await (
          await ctx.client()
        ).listReady({
          limit: opts.limit as number | undefined,
          cursor: opts.cursor as string | undefined,
          seriesId: opts.series as string | undefined,
        });
        ctx.out.result(page, () =>
          [
            ...page.items.map((i) => `${i.id} ${i.recordedAt} ${i.displayTitle}`),
            ...(page.nextCursor ? [`next: --cursor ${page.nextCursor}`] : []),
          ].join('\n'),
        );
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
    .option('--series <id>', 'only this series')
    .action((q: string, opts) =>
      run(opts, async (ctx) => {
        const page = await (
          await ctx.client()
        ).search({ q, limit: opts.limit as number | undefined, seriesId: opts.series as string | undefined });
        ctx.out.result(
          page,
          () =>
            page.items
              .map((i) => `${i.id} ${i.recordedAt} ${i.displayTitle}${i.snippet ? `\n    ${i.snippet}` : ''}`)
              .join('\n') || 'no meeting found',
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
        const mm = await ctx.client();
        const seriesId = opts.series as string | undefined;
        const question = seriesId ? [first, second].filter(Boolean).join(' ') : (second ?? '');
        const input = { question, maxMinutes: opts.maxMinutes as number | undefined };
        const answer = seriesId ? await mm.askSeries(seriesId, input) : await mm.askRecording(first, input);
        const names = seriesId ? new Map<string, string>() : await speakerNames(mm, first);
        ctx.out.result(answer, () => answerText(answer, names));
      }),
    );

  program
    .command('events')
    .description('the events feed, oldest first, one line (or JSON line) per event; --follow keeps reading')
    .option('--after <cursor>', 'a cursor exactly as received, or latest')
    .option('--limit <n>', 'page size 1 to 500', int)
    .option('--follow', 'keep reading as events come')
    .action((opts) =>
      run(opts, async (ctx) => {
        const mm = await ctx.client();
        let cursor = opts.after as string | undefined;
        for await (const item of mm.followEvents({
          after: cursor,
          limit: opts.limit as number | undefined,
          untilCaughtUp: !opts.follow,
          idleMs: ctx.cfg.pollMaxSeconds * 1000,
          onCursor: (c) => (cursor = c),
        })) {
          if (item.kind === 'resync')
            ctx.out.result(
              item,
              () => `cursor expired: ${item.ready.length} ready meetings; reading on from ${item.cursor}`,
            );
          else
            ctx.out.result(
              item,
              () =>
                `${item.event.occurredAt} ${item.event.type} ${item.event.recordingId}${'change' in item.event.data ? ` ${String(item.event.data.change)}` : ''}`,
            );
        }
        // One JSON line per event; the cursor to read on from comes last.
        if (ctx.out.json) ctx.out.result({ nextCursor: cursor }, () => '');
        else ctx.out.info(`next: --after ${cursor ?? ''}`);
      }),
    );
}

function statusLine(s: RecordingStatus): string {
  const extra = s.error
    ? ` ${s.error.code}${s.error.retryable ? ' (retryable)' : ''}`
    : s.naming
      ? ` name the speakers: ${s.naming.url}`
      : '';
  return `${s.status} ${s.id}${s.title ? ` ${s.title}` : ''}${extra}`;
}

/** The names given to a meeting's speakers, when the token may read its bundle (else the labels stay). */
async function speakerNames(mm: MeetingMemory, id: string): Promise<Map<string, string>> {
  try {
    const b = await mm.bundle(id);
    return new Map(b.transcript.speakers.flatMap((s) => (s.name ? [[s.label, s.name] as const] : [])));
  } catch {
    return new Map();
  }
}
