/**
 * Upload memory: a ~200 MiB WAV (16 kHz mono, ~109 minutes, generated into the case's scratch
 * directory) is streamed from disk to POST /api/v1/recordings through the gateway, once alone and
 * then three at once, while the resident memory of the gateway and of the recordings service is
 * sampled from /proc every 50 ms (and their VmHWM read before and after, which catches a peak
 * between two samples). Uploads must stream (the gateway pipes the body, recordings writes the
 * parts to disk with multer's disk storage), so the peak should stay near the baseline whatever
 * the size. `upload-memory-s3` runs the same on the S3 store (a real S3-protocol server, s3rver, in
 * the bench's own process): recordings then sends each upload on as a multipart upload.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { createAccount, createToken, type BenchToken } from '../lib/admin';
import { hwmMiB, loadAverage, RssSampler } from '../lib/proc';
import { fmt } from '../lib/report';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';
import { postMultipart, writeLargeWav, type UploadResult } from '../lib/upload';
import { startS3Server, type S3Server } from '../../support/s3';

/** The agreed target: the recordings service stays under this while a large upload streams in. */
export const UPLOAD_RSS_TARGET_MIB = 200;
/** Size of the generated upload; `BENCH_UPLOAD_MIB` changes it (1–480: MAX_UPLOAD_MB 500, MAX_RECORDING_MINUTES 300) to check that memory does not follow it. */
const UPLOAD_MIB = Number(process.env.BENCH_UPLOAD_MIB ?? 200);
const PARALLEL = 3;
const SAMPLE_MS = 50;
const SERVICES: ServiceName[] = ['account', 'recordings', 'series', 'gateway'];
const WATCHED = ['recordings', 'gateway'] as const;
type Watched = (typeof WATCHED)[number];

interface Memory {
  baselineMiB: number;
  /** Highest VmRSS seen by the 50 ms sampler. */
  sampledPeakMiB: number;
  hwmBeforeMiB: number;
  hwmAfterMiB: number;
  /** The sampled peak, or the VmHWM after the run when the run raised the high-water mark. */
  peakMiB: number;
  afterMiB: number;
  samples: number;
}

interface Phase {
  label: string;
  uploads: UploadResult[];
  wallMs: number;
  memory: Record<Watched, Memory>;
  loadBefore: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MiB = 1024 * 1024;

async function measured(ctx: CaseContext, label: string, work: () => Promise<UploadResult[]>): Promise<Phase> {
  const pids = Object.fromEntries(
    WATCHED.map((s) => {
      const pid = ctx.stack.servicePid(s);
      if (!pid) throw new BenchError(`${s} is not running`);
      return [s, pid];
    }),
  ) as Record<Watched, number>;
  const samplers = Object.fromEntries(WATCHED.map((s) => [s, new RssSampler(pids[s], SAMPLE_MS)])) as Record<
    Watched,
    RssSampler
  >;
  const hwmBefore = Object.fromEntries(WATCHED.map((s) => [s, hwmMiB(pids[s]) ?? 0])) as Record<Watched, number>;
  const loadBefore = loadAverage();
  for (const s of WATCHED) samplers[s].start();
  const started = performance.now();
  let uploads: UploadResult[];
  try {
    uploads = await work();
  } finally {
    // Memory freed right after the answer is still part of the upload's cost: sample a little longer.
    await sleep(500);
  }
  const wallMs = performance.now() - started;
  const memory = {} as Record<Watched, Memory>;
  for (const s of WATCHED) {
    const r = samplers[s].stop();
    const hwmAfter = hwmMiB(pids[s]) ?? 0;
    memory[s] = {
      baselineMiB: r.baselineMiB,
      sampledPeakMiB: r.peakMiB,
      hwmBeforeMiB: hwmBefore[s],
      hwmAfterMiB: hwmAfter,
      peakMiB: hwmAfter > hwmBefore[s] ? Math.max(hwmAfter, r.peakMiB) : r.peakMiB,
      afterMiB: r.lastMiB,
      samples: r.samples,
    };
  }
  ctx.stack.assertAlive();
  return { label, uploads, wallMs: wallMs - 500, memory, loadBefore };
}

function upload(ctx: CaseContext, token: BenchToken, file: string, n: number): Promise<UploadResult> {
  return postMultipart(
    `${ctx.stack.url('gateway')}/api/v1/recordings`,
    { Authorization: `Bearer ${token.value}` },
    { naming: 'skip' },
    {
      field: 'audio',
      path: file,
      filename: `bench-upload-${n}.wav`,
      contentType: 'audio/wav',
    },
  );
}

function check(u: UploadResult, what: string): void {
  if (u.status !== 202)
    throw new BenchError(`${what}: POST /api/v1/recordings answered ${u.status}: ${u.text.slice(0, 500)}`);
}

const LIMITS = { MAX_UPLOAD_MB: '500', MAX_RECORDING_MINUTES: '300' };

export const uploadMemoryCase: BenchCase = {
  name: 'upload-memory',
  description: `peak RSS of gateway and recordings while a ${UPLOAD_MIB} MiB WAV streams through (alone, then ${PARALLEL} at once; target recordings < ${UPLOAD_RSS_TARGET_MIB} MiB)`,
  implemented: true,
  services: SERVICES,
  env: (scratch) => ({ AUDIO_STORE: `file:${path.join(scratch, 'store')}`, ...LIMITS }),
  run: (ctx) => runUploadMemory(ctx, 'file'),
};

let s3: S3Server | null = null;

export const uploadMemoryS3Case: BenchCase = {
  name: 'upload-memory-s3',
  description: `upload-memory on the S3 store (s3rver; streaming multipart upload from recordings; target recordings < ${UPLOAD_RSS_TARGET_MIB} MiB)`,
  implemented: true,
  services: SERVICES,
  env: async (scratch) => {
    s3 = await startS3Server();
    return { ...s3.env('bench'), AUDIO_CACHE_DIR: path.join(scratch, 'cache'), ...LIMITS };
  },
  teardown: async () => {
    await s3?.stop();
    s3 = null;
  },
  run: (ctx) => runUploadMemory(ctx, 's3'),
};

async function runUploadMemory(ctx: CaseContext, store: 'file' | 's3'): Promise<CaseReport> {
  if (!Number.isFinite(UPLOAD_MIB) || UPLOAD_MIB < 1 || UPLOAD_MIB > 480)
    throw new BenchError(`BENCH_UPLOAD_MIB must be 1 to 480 (got ${process.env.BENCH_UPLOAD_MIB})`);
  const gateway = ctx.stack.url('gateway');
  const file = path.join(ctx.scratchDir, 'upload.wav');
  const genStart = performance.now();
  const audioMs = await writeLargeWav(file, UPLOAD_MIB * MiB);
  const fileBytes = statSync(file).size;
  ctx.log(
    `generated ${file}: ${(fileBytes / MiB).toFixed(1)} MiB, ${(audioMs / 60_000).toFixed(1)} minutes of 16 kHz mono audio in ${((performance.now() - genStart) / 1000).toFixed(1)} s`,
  );
  ctx.checkAborted();

  const minutes = Math.ceil(audioMs / 60_000);
  const account = await createAccount(gateway, {
    displayName: 'bench upload-memory',
    developerMode: true,
    balanceMinutes: minutes * (PARALLEL + 2),
  });
  const token = await createToken(gateway, account.id, {
    name: 'bench upload-memory',
    scopes: ['recordings:write', 'recordings:read'],
    expiresInDays: 30,
  });
  ctx.log(`account ${account.id}, token ${token.id}`);

  // Let the services settle after start-up (tsx compile, migrations, first connections).
  await sleep(2000);
  for (const s of WATCHED) {
    const tree = ctx.stack.pids(s).map((pid) => `${pid} ${readFileSync(`/proc/${pid}/comm`, 'utf8').trim()}`);
    ctx.log(`${s}: measuring pid ${ctx.stack.servicePid(s)} (process tree: ${tree.join(', ')})`);
  }
  ctx.log(`one upload of ${(fileBytes / MiB).toFixed(0)} MiB (load average ${loadAverage().toFixed(2)})`);
  const single = await measured(ctx, '1 upload', async () => [await upload(ctx, token, file, 1)]);
  check(single.uploads[0], 'single upload');
  ctx.checkAborted();

  await sleep(2000);
  ctx.log(`${PARALLEL} uploads at once (load average ${loadAverage().toFixed(2)})`);
  const parallel = await measured(ctx, `${PARALLEL} uploads at once`, () =>
    Promise.all(Array.from({ length: PARALLEL }, (_, i) => upload(ctx, token, file, i + 2))),
  );
  parallel.uploads.forEach((u, i) => check(u, `parallel upload ${i + 1}`));

  const rate = (p: Phase) => p.uploads.reduce((a, u) => a + u.bytes, 0) / MiB / (p.wallMs / 1000);
  const memRows = [single, parallel].flatMap((p) =>
    WATCHED.map((s) => {
      const m = p.memory[s];
      return [
        `${p.label}: ${s}`,
        fmt.ms(m.baselineMiB),
        fmt.ms(m.sampledPeakMiB),
        `${fmt.ms(m.hwmBeforeMiB)} → ${fmt.ms(m.hwmAfterMiB)}`,
        fmt.ms(m.peakMiB),
        fmt.ms(m.peakMiB - m.baselineMiB),
        fmt.ms(m.afterMiB),
        String(m.samples),
      ];
    }),
  );
  const uploadRows = [single, parallel].map((p) => [
    p.label,
    fmt.ms(p.uploads.reduce((a, u) => a + u.bytes, 0) / MiB),
    fmt.ms(p.wallMs / 1000),
    fmt.ms(rate(p)),
    fmt.ms(Math.max(...p.uploads.map((u) => u.ms)) / 1000),
    p.uploads.map((u) => u.status).join(', '),
    p.loadBefore.toFixed(2),
  ]);
  const answer = single.uploads[0].body as { recording?: { id: string; status: string; minutes: number } };
  const rec = single.memory.recordings;
  const gw = single.memory.gateway;
  const worstParallel = parallel.memory.recordings;
  const pass = rec.peakMiB < UPLOAD_RSS_TARGET_MIB;
  return {
    tables: [
      {
        title: `upload-memory (${store} store) — ${(fileBytes / MiB).toFixed(0)} MiB WAV (${(audioMs / 60_000).toFixed(1)} min) streamed from disk through the gateway`,
        table: {
          headers: ['upload', 'MiB sent', 'seconds', 'MiB/s', 'slowest s', 'answers', 'load avg'],
          rows: uploadRows,
        },
      },
      {
        title: `resident memory (MiB; VmRSS sampled every ${SAMPLE_MS} ms, VmHWM before → after)`,
        table: {
          headers: [
            'phase: service',
            'baseline',
            'sampled peak',
            'VmHWM',
            'peak',
            'peak − baseline',
            'after',
            'samples',
          ],
          rows: memRows,
        },
      },
    ],
    lines: [
      `202 answer: ${JSON.stringify(single.uploads[0].body)}`,
      `single upload: ${fmt.ms(single.wallMs / 1000)} s, ${fmt.ms(rate(single))} MiB/s; recordings peak ${fmt.ms(rec.peakMiB)} MiB (+${fmt.ms(rec.peakMiB - rec.baselineMiB)}), gateway peak ${fmt.ms(gw.peakMiB)} MiB (+${fmt.ms(gw.peakMiB - gw.baselineMiB)})`,
      `${PARALLEL} at once: recordings peak ${fmt.ms(worstParallel.peakMiB)} MiB (+${fmt.ms(worstParallel.peakMiB - worstParallel.baselineMiB)}), gateway peak ${fmt.ms(parallel.memory.gateway.peakMiB)} MiB (+${fmt.ms(parallel.memory.gateway.peakMiB - parallel.memory.gateway.baselineMiB)})`,
      `peak = the sampled VmRSS peak, or VmHWM when the run raised the process's high-water mark (a spike between two samples)`,
      `load average: ${single.loadBefore.toFixed(2)} before the single upload, ${loadAverage().toFixed(2)} at the end`,
    ],
    targets: [
      {
        label: `${store} store: recordings peak RSS < ${UPLOAD_RSS_TARGET_MIB} MiB while a ${UPLOAD_MIB} MiB upload streams in`,
        pass,
        measured: `${fmt.ms(rec.peakMiB)} MiB (baseline ${fmt.ms(rec.baselineMiB)}); ${PARALLEL} at once ${fmt.ms(worstParallel.peakMiB)} MiB; gateway ${fmt.ms(gw.peakMiB)} MiB`,
      },
    ],
    summary: `${store} store: recordings peak ${fmt.ms(rec.peakMiB)} MiB (+${fmt.ms(rec.peakMiB - rec.baselineMiB)}), gateway ${fmt.ms(gw.peakMiB)} MiB; ${UPLOAD_MIB} MiB in ${fmt.ms(single.wallMs / 1000)} s (${fmt.ms(rate(single))} MiB/s); ${answer.recording?.status ?? '?'} ${single.uploads[0].status}`,
    data: {
      fileBytes,
      audioMs,
      phases: [single, parallel].map((p) => ({
        label: p.label,
        wallMs: p.wallMs,
        mibPerSecond: rate(p),
        uploads: p.uploads.map((u) => ({ status: u.status, bytes: u.bytes, ms: u.ms, sentMs: u.sentMs, body: u.body })),
        memory: p.memory,
        loadBefore: p.loadBefore,
      })),
    },
  };
}
