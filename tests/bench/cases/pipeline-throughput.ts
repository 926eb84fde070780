/**
 * Pipeline throughput and fairness: three accounts submit twelve 5-minute 3-voice meetings at
 * once (back to back, in the worst order for FIFO: A's four, then B's, then C's), through the
 * gateway with naming=skip. Measured in the same run with the pipeline as configured (one
 * transcription per core) and restarted as one worker (RUNS below); the target compares the two.
 *
 * Each meeting's transcription start comes from the pipeline's job table (exact); READY from
 * polling its status every 500 ms. Fairness: lib/fair-starts.ts. CPU: the pipeline with the
 * engine processes it ran (reaped children), each core of the machine, everything else.
 *
 * `BENCH_THROUGHPUT_MEETINGS` and `BENCH_THROUGHPUT_MINUTES` shrink it for a quick try (e.g. 9
 * and 1); the targets are defined at 12 and 5.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { openDatabase } from '@mm/db';
import { longMeeting, speakMeeting } from '../../support/speak-meeting';
import type { Database as PipelineDb } from '../../../services/pipeline/src/db/schema';
import { createAccount, createToken } from '../lib/admin';
import { checkFairStarts, type FairnessVerdict } from '../lib/fair-starts';
import { cpuCount, cpuSecondsWithReapedChildren, loadAverage } from '../lib/proc';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';
import { postMultipart } from '../lib/upload';

export const THROUGHPUT_TARGET = 1.6;
const MEETINGS = Number(process.env.BENCH_THROUGHPUT_MEETINGS ?? 12);
const MINUTES = Number(process.env.BENCH_THROUGHPUT_MINUTES ?? 5);
const ACCOUNTS = ['A', 'B', 'C'] as const;
const POLL_MS = 500;
const SERVICES: ServiceName[] = ['account', 'recordings', 'series', 'pipeline', 'gateway'];

interface Run {
  label: string;
  /** The pipeline's environment for this run (over the stack's). */
  env: Record<string, string>;
}

/**
 * The measured configuration (the pipeline's defaults: one transcription per core, each cutting its
 * audio over every core), one worker (one transcription at a time with one decoder: the work of
 * one core), and, unless `BENCH_THROUGHPUT_REFERENCE=0`, one transcription at a time with its
 * decoders over every core (the default before this case).
 */
const RUNS: Run[] = [
  { label: 'one per core', env: {} },
  { label: 'one worker', env: { PIPELINE_TRANSCRIBE_CONCURRENCY: '1', PIPELINE_ASR_DECODERS: '1' } },
  ...(process.env.BENCH_THROUGHPUT_REFERENCE === '0'
    ? []
    : [{ label: 'one at a time', env: { PIPELINE_TRANSCRIBE_CONCURRENCY: '1' } }]),
];

interface Submitter {
  name: string;
  token: string;
}

interface MeetingRun {
  account: string;
  id: string;
  /** ms after the batch started (its first submit). */
  acceptedAt: number;
  startedAt: number;
  transcribedAt: number;
  readyAt: number;
}

interface CoreTimes {
  busy: number;
  total: number;
}

interface BatchResult {
  label: string;
  env: Record<string, string>;
  meetings: MeetingRun[];
  makespanSeconds: number;
  submitSeconds: number;
  pipelineCpuSeconds: number;
  coreBusyPercent: number[];
  loadBefore: number;
  loadAfter: number;
  fairness: FairnessVerdict;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Busy and total jiffies of each core (/proc/stat cpuN lines). */
function coreTimes(): CoreTimes[] {
  return readFileSync('/proc/stat', 'utf8')
    .split('\n')
    .filter((l) => /^cpu\d+ /.test(l))
    .map((l) => {
      const v = l.trim().split(/\s+/).slice(1).map(Number);
      return { busy: v[0] + v[1] + v[2] + v[5] + v[6], total: v.slice(0, 8).reduce((a, b) => a + b, 0) };
    });
}

/** The account of the i-th meeting: A's share first, then B's, then C's (FIFO's worst case). */
const accountOf = (i: number) => ACCOUNTS[Math.floor((i * ACCOUNTS.length) / MEETINGS)];

async function statusOf(gateway: string, token: string, id: string): Promise<string> {
  const res = await fetch(`${gateway}/api/v1/recordings/${id}/status`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  if (res.status !== 200) throw new BenchError(`GET status of ${id} answered ${res.status}: ${text}`);
  return String((JSON.parse(text) as { status: unknown }).status);
}

async function runBatch(
  ctx: CaseContext,
  { label, env }: Run,
  submitters: Submitter[],
  audio: { path: string; seconds: number },
): Promise<BatchResult> {
  const gateway = ctx.stack.url('gateway');
  const pipelinePid = ctx.stack.servicePid('pipeline');
  if (!pipelinePid) throw new BenchError('pipeline is not running');
  const loadBefore = loadAverage();
  const cpuBefore = cpuSecondsWithReapedChildren(pipelinePid);
  const coresBefore = coreTimes();
  ctx.log(`${label}: submitting ${MEETINGS} meetings (load average ${loadBefore.toFixed(2)})`);
  const t0 = Date.now();
  const submitted: Array<{ account: string; token: string; id: string; acceptedAt: number }> = [];
  for (let i = 0; i < MEETINGS; i++) {
    const who = submitters.find((s) => s.name === accountOf(i))!;
    const up = await postMultipart(
      `${gateway}/api/v1/recordings`,
      { Authorization: `Bearer ${who.token}` },
      { naming: 'skip' },
      { field: 'audio', path: audio.path, filename: `meeting-${i}.wav`, contentType: 'audio/wav' },
    );
    if (up.status !== 202) throw new BenchError(`POST /api/v1/recordings answered ${up.status}: ${up.text}`);
    submitted.push({
      account: who.name,
      token: who.token,
      id: (up.body as { recording: { id: string } }).recording.id,
      acceptedAt: Date.now() - t0,
    });
  }
  const submitSeconds = (Date.now() - t0) / 1000;
  ctx.log(`${label}: ${MEETINGS} submits accepted in ${submitSeconds.toFixed(1)} s; polling every ${POLL_MS} ms`);

  const readyAt = new Map<string, number>();
  const deadline = t0 + MEETINGS * audio.seconds * 1000 * 1.5 + 120_000;
  while (readyAt.size < submitted.length) {
    ctx.checkAborted();
    ctx.stack.assertAlive();
    const open = submitted.filter((m) => !readyAt.has(m.id));
    const statuses = await Promise.all(open.map((m) => statusOf(gateway, m.token, m.id)));
    const at = Date.now() - t0;
    open.forEach((m, i) => {
      if (statuses[i] === 'FAILED') throw new BenchError(`${m.id} FAILED; see ${ctx.stack.logFile('pipeline')}`);
      if (statuses[i] === 'READY') readyAt.set(m.id, at);
    });
    if (Date.now() > deadline)
      throw new BenchError(
        `${label}: ${open.length} meetings not READY after ${((Date.now() - t0) / 1000).toFixed(0)} s`,
      );
    if (readyAt.size < submitted.length) await sleep(POLL_MS);
  }
  const makespanSeconds = Math.max(...readyAt.values()) / 1000;
  const pipelineCpuSeconds = cpuSecondsWithReapedChildren(pipelinePid) - cpuBefore;
  const coresAfter = coreTimes();
  const coreBusyPercent = coresAfter.map(
    (c, i) => ((c.busy - coresBefore[i].busy) / Math.max(1, c.total - coresBefore[i].total)) * 100,
  );
  const loadAfter = loadAverage();

  const { db } = openDatabase<PipelineDb>({ url: ctx.opts.databaseUrl, schema: 'pipeline', poolSize: 1 });
  try {
    const jobs = await db
      .selectFrom('job')
      .select(['recordingId', 'startedAt', 'finishedAt'])
      .where('step', '=', 'transcribe')
      .where(
        'recordingId',
        'in',
        submitted.map((m) => m.id),
      )
      .execute();
    const meetings = submitted.map((m): MeetingRun => {
      const job = jobs.find((j) => j.recordingId === m.id);
      if (!job?.startedAt || !job.finishedAt)
        throw new BenchError(`${m.id}: no finished transcription in pipeline.job`);
      return {
        account: m.account,
        id: m.id,
        acceptedAt: m.acceptedAt,
        startedAt: job.startedAt.getTime() - t0,
        transcribedAt: job.finishedAt.getTime() - t0,
        readyAt: readyAt.get(m.id)!,
      };
    });
    const fairness = checkFairStarts(meetings);
    ctx.log(
      `${label}: makespan ${makespanSeconds.toFixed(1)} s, pipeline CPU ${pipelineCpuSeconds.toFixed(1)} s, fairness ${fairness.pass ? 'PASS' : 'FAIL'}`,
    );
    return {
      label,
      env,
      meetings,
      makespanSeconds,
      submitSeconds,
      pipelineCpuSeconds,
      coreBusyPercent,
      loadBefore,
      loadAfter,
      fairness,
    };
  } finally {
    await db.destroy();
  }
}

const s1 = (ms: number) => (ms / 1000).toFixed(1);

function startOrder(b: BatchResult): string {
  return [...b.meetings]
    .sort((x, y) => x.startedAt - y.startedAt)
    .map((m) => m.account)
    .join('');
}

function batchLines(b: BatchResult, audioSeconds: number): string[] {
  const n = b.meetings.length;
  const accountLines = b.fairness.accounts
    .map((a) => `${a.account} first ${s1(a.firstStart)} s, last ${s1(a.lastStart)} s`)
    .join('; ');
  return [
    `${b.label} (${
      Object.entries(b.env)
        .map(([k, v]) => `${k}=${v}`)
        .join(' ') || 'defaults'
    }): makespan ${b.makespanSeconds.toFixed(1)} s for ${n} × ${audioSeconds.toFixed(0)} s of audio ` +
      `(${((n * audioSeconds) / b.makespanSeconds).toFixed(1)} audio s per s); submits took ${b.submitSeconds.toFixed(1)} s`,
    `  start order ${startOrder(b)}; transcription starts: ${accountLines}; fairness ${b.fairness.pass ? 'PASS' : `FAIL (${b.fairness.violations.join('; ')})`}`,
    `  CPU: pipeline with its engine processes ${b.pipelineCpuSeconds.toFixed(1)} s = ${(b.pipelineCpuSeconds / n).toFixed(1)} CPU s per meeting ` +
      `(${(b.pipelineCpuSeconds / n / audioSeconds).toFixed(3)} per audio s), ${(b.pipelineCpuSeconds / b.makespanSeconds).toFixed(2)} cores on average; ` +
      `cores busy ${b.coreBusyPercent.map((p, i) => `cpu${i} ${p.toFixed(0)}%`).join(', ')} (everything on the machine)`,
    `  load average ${b.loadBefore.toFixed(2)} before, ${b.loadAfter.toFixed(2)} after`,
  ];
}

export const pipelineThroughputCase: BenchCase = {
  name: 'pipeline-throughput',
  description: `pipeline throughput: ${MEETINGS} ${MINUTES}-minute meetings of 3 accounts at once, fair start order, vs one worker (target >= ${THROUGHPUT_TARGET}x)`,
  implemented: true,
  services: SERVICES,
  env: (scratch) => ({
    AUDIO_STORE: `file:${path.join(scratch, 'store')}`,
    NAMING_AUTO_WAIT_SECONDS: '1',
    MAX_UPLOAD_MB: '500',
  }),
  async run(ctx: CaseContext): Promise<CaseReport> {
    if (!Number.isInteger(MEETINGS) || MEETINGS < ACCOUNTS.length * 2)
      throw new BenchError(`BENCH_THROUGHPUT_MEETINGS must be an integer >= ${ACCOUNTS.length * 2}`);
    if (!(MINUTES > 0 && MINUTES <= 30)) throw new BenchError('BENCH_THROUGHPUT_MINUTES must be in (0, 30]');
    const gateway = ctx.stack.url('gateway');
    ctx.log(`rendering the ${MINUTES}-minute meeting (flite + sox, cached in the OS temp dir)`);
    const meeting = await speakMeeting(longMeeting(MINUTES));
    const audioSeconds = meeting.durationMs / 1000;
    ctx.checkAborted();
    const submitters: Submitter[] = [];
    for (const name of ACCOUNTS) {
      const account = await createAccount(gateway, {
        displayName: `bench throughput ${name}`,
        developerMode: true,
        balanceMinutes: 10_000,
      });
      const token = await createToken(gateway, account.id, {
        name: `bench throughput ${name}`,
        scopes: ['recordings:write', 'recordings:read'],
        expiresInDays: 30,
      });
      submitters.push({ name, token: token.value });
    }
    const audio = { path: meeting.path, seconds: audioSeconds };
    const cores = availableParallelism();
    const batches: BatchResult[] = [];
    for (const run of RUNS) {
      if (batches.length) {
        ctx.log(
          `restarting the pipeline with ${
            Object.entries(run.env)
              .map(([k, v]) => `${k}=${v}`)
              .join(' ') || 'its defaults'
          }`,
        );
        const launch = ctx.stack.launchOf('pipeline');
        await ctx.stack.kill('pipeline', true);
        await ctx.stack.restart('pipeline', launch, run.env);
      }
      batches.push(await runBatch(ctx, run, submitters, audio));
    }
    const [parallel, single] = batches;
    const ratio = single.makespanSeconds / parallel.makespanSeconds;
    const cpuRatio = single.pipelineCpuSeconds / parallel.pipelineCpuSeconds;
    const reference = batches[2];
    const referenceLine = reference
      ? [
          `reference: ${(reference.makespanSeconds / parallel.makespanSeconds).toFixed(2)}x one transcription at a time with its decoders over every core (the previous default), which already keeps ${(reference.pipelineCpuSeconds / reference.makespanSeconds).toFixed(2)} cores busy`,
        ]
      : [];
    const rows = batches.flatMap((b) =>
      [...b.meetings]
        .sort((x, y) => x.acceptedAt - y.acceptedAt)
        .map((m, i) => [
          b.label,
          String(i + 1),
          m.account,
          s1(m.acceptedAt),
          s1(m.startedAt),
          s1(m.startedAt - m.acceptedAt),
          s1(m.transcribedAt - m.startedAt),
          s1(m.readyAt),
        ]),
    );
    const logLevel = ctx.opts.serviceEnv.LOG_LEVEL ?? 'warn';
    return {
      tables: [
        {
          title: `pipeline-throughput — ${MEETINGS} meetings of ${audioSeconds.toFixed(1)} s (${meeting.turns.length} turns, 3 voices), accounts ${ACCOUNTS.join('/')} submitting in the order ${[...Array(MEETINGS).keys()].map(accountOf).join('')}; seconds after the batch's first submit`,
          table: { headers: ['run', '#', 'account', 'accepted', 'started', 'waited', 'transcribing', 'READY'], rows },
        },
      ],
      lines: [
        ...batches.flatMap((b) => batchLines(b, audioSeconds)),
        `throughput ${ratio.toFixed(2)}x one worker (makespan ${single.makespanSeconds.toFixed(1)} s / ${parallel.makespanSeconds.toFixed(1)} s); CPU s per meeting one worker / per core: ${cpuRatio.toFixed(2)}`,
        ...referenceLine,
        `conditions: ${cpuCount()} cores, log level ${logLevel}, naming=skip, offline engines (pocketsphinx, extractive digest); the machine is shared: at load average > 1 the ratio is bounded by the cores others leave`,
      ],
      targets: [
        {
          label: `throughput with one transcription per core >= ${THROUGHPUT_TARGET}x one worker (one transcription, one decoder)`,
          pass: ratio >= THROUGHPUT_TARGET,
          measured: `${ratio.toFixed(2)}x (${single.makespanSeconds.toFixed(1)} s vs ${parallel.makespanSeconds.toFixed(1)} s)`,
        },
        ...batches.map((b) => ({
          label: `fair order, ${b.label}: every account's first transcription starts before any other account's last one starts`,
          pass: b.fairness.pass,
          measured: startOrder(b),
        })),
      ],
      summary: `${ratio.toFixed(2)}x one worker (makespan ${parallel.makespanSeconds.toFixed(0)} s vs ${single.makespanSeconds.toFixed(0)} s), start orders ${batches.map(startOrder).join(' / ')}; load ${parallel.loadBefore.toFixed(2)} → ${batches[batches.length - 1].loadAfter.toFixed(2)}`,
      data: { meetings: MEETINGS, minutes: MINUTES, audioSeconds, cores, ratio, cpuRatio, batches },
    };
  },
};
