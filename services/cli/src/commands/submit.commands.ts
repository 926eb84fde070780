import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { OUTPUT_LANGUAGES, RECORDING_KINDS, SUBMIT_NAMING_OPTIONS } from '@mm/contract';
import { MmApiError, type MeetingMemory, type RecordingStatus, type SubmitInput, type SubmitResult } from '@mm/sdk';
import { EXIT, mostRelevantExit } from '../domain/exit-codes';
import { statusLine } from '../domain/format';
import { namingStop } from '../domain/naming-stop';
import { watchInterruption, type Stop } from '../interrupt';
import { progress, type FileProgress } from '../progress';
import { CliError, describeError, errorLine, type ErrorView } from '../output';
import type { Ctx } from '../context';

type Run = (opts: Record<string, unknown>, fn: (ctx: Ctx) => Promise<number | void>) => Promise<void>;

/** One file's or meeting's outcome: its meeting once accepted, its last status read, or its error. */
interface ItemResult {
  file?: string;
  id?: string;
  recording?: SubmitResult['recording'];
  final?: RecordingStatus;
  error?: ErrorView;
  /** The commands that go on from a wait stopped at NAMING. */
  next?: string[];
  /** Set when a signal (or the parent's end) stopped the command before this item was done. */
  stoppedBy?: Stop['reason'];
  exitCode: number;
}

/** What one item's work gets: its progress line, what is known so far (printed if stopped), the stop signal. */
interface ItemRun {
  p: FileProgress;
  known: Omit<ItemResult, 'exitCode'>;
  signal: AbortSignal;
}

/** submit, wait, status, skip-naming, retry: a meeting's way to READY. */
export function registerSubmitCommands(program: Command, run: Run): void {
  program
    .command('submit')
    .description('send meeting audio files; --wait shows each one until READY, FAILED or waiting for names')
    .argument('<files...>', 'audio files')
    .option('--title <title>', 'the meeting title')
    .option('--series <id>', 'file the meeting in this series')
    .addOption(new Option('--kind <kind>', 'the kind of recording').choices(RECORDING_KINDS))
    .addOption(new Option('--language <lang>', 'the digest language').choices(OUTPUT_LANGUAGES))
    .addOption(new Option('--naming <mode>', '`skip` never stops at NAMING').choices(SUBMIT_NAMING_OPTIONS))
    .option('--skip-naming', 'go on without speaker names (as --naming skip): a wait never stops at NAMING')
    .option('--wait', 'wait until each meeting is READY or FAILED, or stop where it waits for speaker names')
    .action((files: string[], opts) =>
      run(opts, async (ctx) => {
        const audio = await readableFiles(files, ctx.cfg.cwd);
        const mm = await ctx.client();
        return eachItem(ctx, files, 'file', submitLine, async (file, { p, known, signal }) => {
          try {
            const { recording } = await mm.submitRecording({
              audio: audio.get(file)!,
              title: opts.title as string | undefined,
              seriesId: opts.series as string | undefined,
              kind: opts.kind as SubmitInput['kind'],
              outputLanguage: opts.language as SubmitInput['outputLanguage'],
              naming: (opts.skipNaming ? 'skip' : opts.naming) as SubmitInput['naming'],
              onUploadProgress: (sent, total) => p.uploaded(sent, total),
              signal,
            });
            known.recording = recording;
            p.status(recording.status, recording.id);
            if (!opts.wait) return { file, recording, exitCode: EXIT.OK };
            const run = { p, known, signal };
            return { file, recording, ...(await waitFor(ctx, mm, recording.id, run, Boolean(opts.skipNaming))) };
          } catch (err) {
            // The accepted meeting stays in the result: it was charged, whatever happened next.
            const { recording } = known;
            return { file, ...(recording ? { recording } : {}), ...describeError(err, ctx.apiRoot) };
          }
        });
      }),
    );

  program
    .command('wait')
    .description('wait until each meeting is READY or FAILED, or stop where it waits for speaker names')
    .argument('<ids...>', 'meeting ids')
    .option('--skip-naming', 'at NAMING go on without speaker names and wait on')
    .action((ids: string[], opts) =>
      run(opts, async (ctx) => {
        const mm = await ctx.client();
        return eachItem(ctx, ids, 'id', waitLine, async (id, run) => {
          try {
            return { id, ...(await waitFor(ctx, mm, id, run, Boolean(opts.skipNaming))) };
          } catch (err) {
            return { id, ...describeError(err, ctx.apiRoot) };
          }
        });
      }),
    );

  for (const [name, description, call] of STATUS_COMMANDS)
    program
      .command(name)
      .description(description)
      .argument('<id>')
      .action((id: string, opts) =>
        run(opts, async (ctx) => {
          const s = await call(await ctx.client(), id);
          ctx.out.result(s, () => statusLine(s));
        }),
      );
}

/** The commands on one meeting that answer its status. */
const STATUS_COMMANDS: [string, string, (mm: MeetingMemory, id: string) => Promise<RecordingStatus>][] = [
  ['status', "a meeting's status", (mm, id) => mm.status(id)],
  [
    'skip-naming',
    'go on without speaker names: the meeting leaves NAMING (the voices take suggested names)',
    (mm, id) => mm.skipNaming(id),
  ],
  ['retry', 'try a FAILED meeting again (costs nothing more)', (mm, id) => mm.retryRecording(id)],
];

/**
 * Runs `one` for every item at once with a progress line or bar each, then prints one result per
 * item (a JSON array with --json) and answers the most relevant exit code among them. Stopped by
 * SIGINT or SIGTERM (or the parent's end), it prints what is known at once, every accepted meeting
 * included, and answers 130 or 143 (129).
 */
async function eachItem(
  ctx: Ctx,
  items: string[],
  key: 'file' | 'id',
  line: (r: ItemResult) => string,
  one: (item: string, run: ItemRun) => Promise<ItemResult>,
): Promise<number> {
  const bars = progress(Boolean(process.stderr.isTTY) && !ctx.out.json, ctx.out.info);
  const interruption = watchInterruption();
  const { signal } = interruption;
  const runs = items.map((item) => ({ p: bars.file(path.basename(item)), known: { [key]: item }, signal }));
  // Only results settled before a stop count: after it, the aborted requests' errors are noise.
  const done: (ItemResult | undefined)[] = [];
  let stopped: Stop | undefined;
  try {
    const all = Promise.all(
      items.map(async (item, i) => {
        const r = await one(item, runs[i]);
        if (!signal.aborted) done[i] = r;
      }),
    );
    stopped = await Promise.race([all.then(() => undefined), interruption.stopped]);
  } finally {
    bars.stop();
    interruption.dispose();
  }
  const results = runs.map((run, i) => done[i] ?? stoppedResult(run.known, stopped!));
  ctx.out.result(results, () => results.map(line).join('\n'));
  if (stopped) ctx.out.info(`stopped by ${stopped.reason}; the results above are as known then`);
  return stopped?.exitCode ?? mostRelevantExit(results.map((r) => r.exitCode));
}

/** An item a stop cut short: its meeting and last status when known, else why it has none. */
function stoppedResult(known: ItemRun['known'], stop: Stop): ItemResult {
  const result = { ...known, stoppedBy: stop.reason, exitCode: stop.exitCode };
  if (known.recording || known.final) return result;
  const message = known.file
    ? `stopped by ${stop.reason} before the service answered: the meeting may or may not have been accepted`
    : `stopped by ${stop.reason} before its status was read`;
  return { ...result, error: { code: 'INTERRUPTED', message } };
}

/**
 * Waits for READY or FAILED, or stops at NAMING saying where to name the speakers, until when,
 * and how to go on without (as the MCP server and the SDK do); with `skip`, skips naming there and
 * waits on (a NOT_NAMING means it went on by itself).
 */
async function waitFor(
  ctx: Ctx,
  mm: MeetingMemory,
  id: string,
  { p, known, signal }: ItemRun,
  skip: boolean,
): Promise<Pick<ItemResult, 'final' | 'next' | 'exitCode'>> {
  const pollMs = ctx.cfg.pollMaxSeconds * 1000;
  for (;;) {
    const final = await mm.waitForReady(id, {
      signal,
      schedule: { firstMs: Math.min(5000, pollMs), maxMs: pollMs },
      onProgress: (s) => {
        known.final = s;
        p.status(s.status, s.id);
      },
    });
    if (final.status !== 'NAMING')
      return { final, exitCode: final.status === 'FAILED' ? EXIT.MEETING_FAILED : EXIT.OK };
    if (!skip) {
      const stop = namingStop(id, final.naming);
      p.note(stop.hint);
      return { final, next: stop.next, exitCode: EXIT.NAMING };
    }
    await mm.skipNaming(id).catch((err: unknown) => {
      if (!(err instanceof MmApiError && err.code === 'NOT_NAMING')) throw err;
    });
  }
}

/** The absolute path of each file; a usage error naming every file that cannot be sent, before any is. */
async function readableFiles(files: string[], cwd: string): Promise<Map<string, string>> {
  const checked = await Promise.all(
    files.map(async (file) => {
      const abs = path.resolve(cwd, file);
      try {
        if (!(await fs.stat(abs)).isFile()) return { file, abs, problem: 'not a file' };
        await fs.access(abs, constants.R_OK);
        return { file, abs };
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        const problem = code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'not readable' : String(code);
        return { file, abs, problem };
      }
    }),
  );
  const bad = checked.filter((c) => c.problem);
  if (bad.length)
    throw new CliError(
      'BAD_FILE',
      `${bad.map((b) => `${b.file}: ${b.problem}`).join('; ')}; nothing was sent`,
      EXIT.USAGE,
      { files: bad.map((b) => ({ file: b.abs, problem: b.problem })) },
    );
  return new Map(checked.map((c) => [c.file, c.abs]));
}

function submitLine(r: ItemResult): string {
  if (r.error) return errorLine(r.error, [r.file, r.recording?.id].filter(Boolean).join(' '));
  const s = r.final ?? r.recording!;
  const failure = r.final?.error ? ` ${r.final.error.code}${r.final.error.retryable ? ' (retryable)' : ''}` : '';
  const naming = r.next ? ` ${namingStop(s.id, r.final?.naming).hint}` : '';
  return `${s.status} ${s.id} ${r.file} (${r.recording!.minutes} min)${failure}${naming}${stoppedText(r)}`;
}

const stoppedText = (r: ItemResult) => (r.stoppedBy ? ` (stopped by ${r.stoppedBy})` : '');

function waitLine(r: ItemResult): string {
  if (r.error) return errorLine(r.error, r.id);
  if (r.next)
    return `${r.final!.status} ${r.final!.id} ${namingStop(r.final!.id, r.final!.naming).hint}${stoppedText(r)}`;
  return `${statusLine(r.final!)}${stoppedText(r)}`;
}
