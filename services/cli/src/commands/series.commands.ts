import { Option, type Command } from 'commander';
import { OUTPUT_LANGUAGES, RECORDING_KINDS, TITLE_STYLES } from '@mm/contract';
import type { CreateSeriesInput, SeriesAnswer } from '@mm/sdk';
import { EXIT } from '../domain/exit-codes';
import { CliError } from '../output';
import type { Ctx } from '../context';

type Run = (opts: Record<string, unknown>, fn: (ctx: Ctx) => Promise<number | void>) => Promise<void>;

/** `mm series list|show|create` and `mm quote`: series, and the price of an Ask before asking. */
export function registerSeriesCommands(program: Command, run: Run): void {
  const series = program.command('series').description('series: named groups of meetings (list, show, create)');
  series
    .command('list')
    .description('the series this token can read, owned first')
    .action((opts) =>
      run(opts, async (ctx) => {
        const page = await (await ctx.client()).listSeries();
        ctx.out.result(page, () =>
          page.items.length
            ? page.items.map((s) => `${s.id} ${s.name} (${s.role}, ${s.meetingCount} meetings)`).join('\n')
            : 'no series',
        );
      }),
    );
  series
    .command('show')
    .description('one series and its settings')
    .argument('<id>')
    .action((id: string, opts) =>
      run(opts, async (ctx) => {
        const answer = await (await ctx.client()).getSeries(id);
        ctx.out.result(answer, () => seriesText(answer));
      }),
    );
  series
    .command('create')
    .description('make a series (needs series:write)')
    .argument('<name>')
    .addOption(new Option('--kind <kind>', 'default kind of its meetings').choices(RECORDING_KINDS))
    .addOption(new Option('--language <lang>', 'default digest language').choices(OUTPUT_LANGUAGES))
    .addOption(
      new Option('--title-style <style>', 'SESSION: series name and date; TOPIC: own title').choices(TITLE_STYLES),
    )
    .action((name: string, opts) =>
      run(opts, async (ctx) => {
        const input = {
          name,
          ...(opts.kind ? { defaultKind: opts.kind } : {}),
          ...(opts.language ? { defaultOutputLanguage: opts.language } : {}),
          ...(opts.titleStyle ? { titleStyle: opts.titleStyle } : {}),
        } as CreateSeriesInput;
        const answer = await (await ctx.client()).createSeries(input);
        ctx.out.result(answer, () => `created ${seriesText(answer)}`);
      }),
    );

  program
    .command('quote')
    .description('the price in minutes of asking a meeting (ID) or a series (--series ID); free')
    .argument('[id]')
    .option('--series <id>', 'quote asking this series')
    .action((id: string | undefined, opts) =>
      run(opts, async (ctx) => {
        const seriesId = opts.series as string | undefined;
        if (!id && !seriesId)
          throw new CliError('USAGE', 'no meeting given: mm quote ID (or mm quote --series ID)', EXIT.USAGE);
        const mm = await ctx.client();
        if (seriesId) {
          const q = await mm.quoteSeriesAsk(seriesId);
          ctx.out.result(
            { seriesId, ...q },
            () => `${q.minutes} min to ask series ${seriesId} (${q.meetingCount} meetings)`,
          );
          return;
        }
        const minutes = await mm.quoteRecordingAsk(id!);
        ctx.out.result({ id, minutes }, () => `${minutes} min to ask ${id}`);
      }),
    );
}

function seriesText({ series: s }: SeriesAnswer): string {
  return [
    `${s.id} ${s.name} (${s.access})`,
    `  ${s.meetingCount} meetings, last ${s.lastRecordedAt ?? 'never'}`,
    `  defaults: ${s.defaultKind}, language ${s.defaultOutputLanguage}, titles ${s.titleStyle}, calendar ${s.dateCalendar}`,
  ].join('\n');
}
