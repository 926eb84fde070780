import { constants, promises as fs } from 'node:fs';
import path from 'node:path';
import { Option, type Command } from 'commander';
import { OUTPUT_LANGUAGES, RECORDING_KINDS, SUBMIT_NAMING_OPTIONS } from '@mm/contract';
import type { MeetingMemory, RecordingStatus, SubmitInput, SubmitResult } from '@mm/sdk';
import { EXIT, mostRelevantExit } from '../domain/exit-codes';
import { statusLine } from '../domain/format';
import { stopsAtNaming } from '../domain/naming-wait';
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
  exitCode: number;
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
    .option('--wait', 'wait until each meeting is READY or FAILED (or waits for speaker names)')
    .action((files: string[], opts) =>
      run(opts, async (ctx) => {
        const audio = await readableFiles(files, ctx.cfg.cwd);
        const mm = await ctx.client();
        return eachItem(ctx, files, submitLine, async (file, p) => {
          let recording: SubmitResult['recording'] | undefined;
          try {
            ({ recording } = await mm.submitRecording({
              audio: audio.get(file)!,
              title: opts.title as string | undefined,
              seriesId: opts.series as string | undefined,
              kind: opts.kind as SubmitInput['kind'],
              outputLanguage: opts.language as SubmitInput['outputLanguage'],
              naming: opts.naming as SubmitInput['naming'],
              onUploadProgress: (sent, total) => p.uploaded(sent, total),
            }));
            p.status(recording.status, recording.id);
            if (!opts.wait) return { file, recording, exitCode: EXIT.OK };
            return { file, recording, ...(await waitFor(ctx, mm, recording.id, p)) };
          } catch (err) {
            // The accepted meeting stays in the result: it was charged, whatever happened next.
            return { file, ...(recording ? { recording } : {}), ...describeError(err, ctx.apiRoot) };
          }
        });
      }),
    );

  program
    .command('wait')
    .description('wait until each meeting is READY or FAILED (or waits for speaker names), as submit --wait')
    .argument('<ids...>', 'meeting ids')
    .action((ids: string[], opts) =>
      run(opts, async (ctx) => {
        const mm = await ctx.client();
        return eachItem(ctx, ids, waitLine, async (id, p) => {
          try {
            return { id, ...(await waitFor(ctx, mm, id, p)) };
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
 * item (a JSON array with --json) and answers the most relevant exit code among them.
 */
async function eachItem(
  ctx: Ctx,
  items: string[],
  line: (r: ItemResult) => string,
  one: (item: string, p: FileProgress) => Promise<ItemResult>,
): Promise<number> {
  const bars = progress(Boolean(process.stderr.isTTY) && !ctx.out.json, ctx.out.info);
  let results: ItemResult[];
  try {
    results = await Promise.all(items.map((item) => one(item, bars.file(path.basename(item)))));
  } finally {
    bars.stop();
  }
  ctx.out.result(results, () => results.map(line).join('\n'));
  return mostRelevantExit(results.map((r) => r.exitCode));
}

/**
 * Waits for READY or FAILED. At NAMING it says where to name the speakers and how to go on; it
 * waits on when the service goes on by itself soon (AUTO), else stops there (see naming-wait.ts).
 */
async function waitFor(
  ctx: Ctx,
  mm: MeetingMemory,
  id: string,
  p: FileProgress,
): Promise<Pick<ItemResult, 'final' | 'next' | 'exitCode'>> {
  const pollMs = ctx.cfg.pollMaxSeconds * 1000;
  const stop = new AbortController();
  let stoppedAt: RecordingStatus | undefined;
  let told = '';
  const next = [`mm skip-naming ${id}`, `mm wait ${id}`];
  try {
    const final = await mm.waitForReady(id, {
      throughNaming: true,
      signal: stop.signal,
      schedule: { firstMs: Math.min(5000, pollMs), maxMs: pollMs },
      onProgress: (s) => {
        p.status(s.status, s.id);
        if (s.status !== 'NAMING') return;
        const stops = stopsAtNaming(s.naming?.deadline, Date.now());
        // Once, and again only if it changes (a person opening the sheet moves the deadline).
        const hint = namingHint(s, stops, next);
        if (hint !== told) p.note(hint);
        told = hint;
        if (stops) {
          stoppedAt = s;
          stop.abort();
        }
      },
    });
    return { final, exitCode: final.status === 'FAILED' ? EXIT.MEETING_FAILED : EXIT.OK };
  } catch (err) {
    if (!stoppedAt) throw err;
    return { final: stoppedAt, next, exitCode: EXIT.NAMING };
  }
}

/** Where to name the speakers, and how long the service waits or how to go on without names. */
function namingHint(s: RecordingStatus, stops: boolean, next: string[]): string {
  const url = s.naming?.url ?? '(no naming URL)';
  if (!stops) return `NAMING ${s.id}: name the speakers at ${url}; it goes on without names at ${s.naming?.deadline}`;
  const until = s.naming?.deadline ? `until ${s.naming.deadline}` : 'with no end';
  return `NAMING ${s.id} waits for speaker names ${until}: name them at ${url}, or go on without: ${next.join(' && ')}`;
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
  const naming = r.next ? ` name the speakers: ${r.final?.naming?.url}, or: ${r.next.join(' && ')}` : '';
  return `${s.status} ${s.id} ${r.file} (${r.recording!.minutes} min)${failure}${naming}`;
}

function waitLine(r: ItemResult): string {
  if (r.error) return errorLine(r.error, r.id);
  return `${statusLine(r.final!)}${r.next ? `, or: ${r.next.join(' && ')}` : ''}`;
}
