/**
 * Pipeline memory on a 300-minute meeting (299.5 minutes: the longest the service takes): the pipeline's node
 * process must not hold the meeting's samples (576 MB as 16-bit, 1.15 GB as floats), only
 * per-frame features. The meeting is five hours of room noise (pink, about -50 dBFS) with the
 * three-voice flite standup every 10 minutes (30 turns of speech in all), as a 32 kbit/s mp3,
 * so the recognizer's share stays small and the case measures decoding and speaker features
 * over the full length. It is submitted through the gateway with naming=skip and polled until
 * READY while the pipeline's RSS is sampled every 50 ms (VmHWM catches a spike between samples).
 */
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { speakMeeting, STANDUP_SCRIPT } from '../../support/speak-meeting';
import { createAccount, createToken } from '../lib/admin';
import { cpuSecondsWithReapedChildren, hwmMiB, loadAverage, RssSampler, rssMiB } from '../lib/proc';
import { fmt } from '../lib/report';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';
import { postMultipart } from '../lib/upload';

const run = promisify(execFile);

const MEETING_MINUTES = 300;
const SPEECH_EVERY_MINUTES = 10;
/**
 * Peak RSS of the pipeline's node process while it works on the meeting. The pod's limit is 2 GiB
 * (k8s/base/services/pipeline.yaml) and it transcribes one meeting per core, two at once: the
 * process's ~120 MiB, its decoders (two of ~110 MiB at once since the shared decoder slots; four
 * before, budgeted here still) and two meetings' working sets must fit, so one meeting may take
 * the process to at most (2048 − 120 − 440) / 2 + 120 ≈ 860 MiB; 800 keeps a margin.
 */
export const PEAK_RSS_TARGET_MIB = 800;
const POLL_MS = 1000;
const SERVICES: ServiceName[] = ['account', 'recordings', 'series', 'pipeline', 'gateway'];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Renders a long quiet meeting (`minutes` a multiple of 10) once and keeps it in the OS temp dir
 * (about 2 minutes of ffmpeg for 300 minutes).
 */
export async function quietMeeting(minutes: number, log: (m: string) => void): Promise<string> {
  const out = path.join(os.tmpdir(), 'mm-bench-audio', `quiet-${minutes}min-v2.mp3`);
  if (
    await fs.stat(out).then(
      (s) => s.size > 0,
      () => false,
    )
  )
    return out;
  await fs.mkdir(path.dirname(out), { recursive: true });
  const standup = await speakMeeting(STANDUP_SCRIPT);
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'mm-bench-long-'));
  try {
    log(`rendering the ${minutes}-minute meeting (ffmpeg, once; cached as ${out})`);
    const segment = path.join(work, 'segment.wav');
    await run('ffmpeg', [
      '-v',
      'error',
      '-y',
      '-i',
      standup.path,
      '-af',
      `apad=whole_dur=${SPEECH_EVERY_MINUTES * 60}`,
      '-ar',
      '16000',
      '-ac',
      '1',
      segment,
    ]);
    const partial = `${out}.part.mp3`;
    await run(
      'ffmpeg',
      [
        '-v',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        `anoisesrc=d=${minutes * 60 - 30}:c=pink:r=16000:a=0.003`,
        '-stream_loop',
        String(minutes / SPEECH_EVERY_MINUTES - 1),
        '-i',
        segment,
        '-filter_complex',
        '[0:a][1:a]amix=inputs=2:duration=first:normalize=0',
        '-ac',
        '1',
        '-ar',
        '16000',
        '-c:a',
        'libmp3lame',
        '-b:a',
        '32k',
        partial,
      ],
      { timeout: 20 * 60_000 },
    );
    await fs.rename(partial, out);
    return out;
  } finally {
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** The meeting's status, or null when the gateway did not answer in time (a loaded machine): polled again. */
export async function statusOf(
  gateway: string,
  id: string,
  token: string,
): Promise<{ status: string; text: string } | null> {
  const res = await fetch(`${gateway}/api/v1/recordings/${id}/status`, {
    headers: { Authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  }).catch(() => null);
  if (!res) return null;
  const text = await res.text();
  if (res.status !== 200) throw new BenchError(`GET status of ${id} answered ${res.status}: ${text}`);
  return { status: String((JSON.parse(text) as { status: unknown }).status), text };
}

export const pipelineMemoryCase: BenchCase = {
  name: 'pipeline-memory',
  description: `pipeline peak RSS on a ${MEETING_MINUTES}-minute meeting, submit → READY through the gateway (target < ${PEAK_RSS_TARGET_MIB} MiB)`,
  implemented: true,
  services: SERVICES,
  env: (scratch) => ({
    AUDIO_STORE: `file:${path.join(scratch, 'store')}`,
    MAX_UPLOAD_MB: '500',
    MAX_RECORDING_MINUTES: String(MEETING_MINUTES),
  }),
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const file = await quietMeeting(MEETING_MINUTES, ctx.log);
    const bytes = (await fs.stat(file)).size;
    ctx.checkAborted();
    const account = await createAccount(gateway, {
      displayName: 'bench pipeline-memory',
      developerMode: true,
      balanceMinutes: 1000,
    });
    const token = await createToken(gateway, account.id, {
      name: 'bench pipeline-memory',
      scopes: ['recordings:write', 'recordings:read'],
      expiresInDays: 30,
    });
    const pid = ctx.stack.servicePid('pipeline');
    if (!pid) throw new BenchError('pipeline is not running');
    const rss = new RssSampler(pid);
    const loadBefore = loadAverage();
    const cpuBefore = cpuSecondsWithReapedChildren(pid);
    rss.start();
    const hwmBefore = hwmMiB(pid) ?? 0;
    ctx.log(`submitting ${fmt.int(bytes / 2 ** 20)} MiB mp3 (load average ${loadBefore.toFixed(2)})`);
    const t0 = performance.now();
    const headers = { Authorization: `Bearer ${token.value}` };
    const up = await postMultipart(
      `${gateway}/api/v1/recordings`,
      headers,
      { naming: 'skip' },
      { field: 'audio', path: file, filename: 'long.mp3', contentType: 'audio/mpeg' },
    );
    if (up.status !== 202) throw new BenchError(`POST /api/v1/recordings answered ${up.status}: ${up.text}`);
    const id = (up.body as { recording: { id: string } }).recording.id;
    const deadline = t0 + MEETING_MINUTES * 60_000;
    let lastStatus = '';
    let lastLog = 0;
    for (;;) {
      ctx.checkAborted();
      ctx.stack.assertAlive();
      const seen = await statusOf(gateway, id, token.value);
      const { status, text } = seen ?? { status: 'unknown', text: '' };
      if (status === 'READY') break;
      if (status !== lastStatus || performance.now() - lastLog > 60_000) {
        ctx.log(
          `${((performance.now() - t0) / 1000).toFixed(0)} s: ${status}, pipeline RSS ${rssMiB(pid)?.toFixed(0) ?? '?'} MiB`,
        );
        lastStatus = status;
        lastLog = performance.now();
      }
      if (status === 'FAILED' || status === 'NAMING')
        throw new BenchError(`${id} ended ${status}: ${text}; see ${ctx.stack.logFile('pipeline')}`);
      if (performance.now() > deadline)
        throw new BenchError(`${id} not READY after ${MEETING_MINUTES} minutes; still ${status}`);
      await sleep(POLL_MS);
    }
    const wallSeconds = (performance.now() - t0) / 1000;
    const sampled = rss.stop();
    const hwmAfter = hwmMiB(pid) ?? 0;
    const cpu = cpuSecondsWithReapedChildren(pid) - cpuBefore;
    const loadAfter = loadAverage();
    // VmHWM is the process's peak since it started: it counts for this meeting only if it rose during it.
    const peak = Math.max(sampled.peakMiB, hwmAfter > hwmBefore ? hwmAfter : 0);
    const pass = peak < PEAK_RSS_TARGET_MIB;
    return {
      tables: [
        {
          title: `pipeline-memory — ${MEETING_MINUTES}-minute meeting (${fmt.int(bytes / 2 ** 20)} MiB mp3), naming=skip`,
          table: {
            headers: ['pipeline node process', 'MiB'],
            rows: [
              ['RSS before the submit', sampled.baselineMiB.toFixed(0)],
              ['peak RSS (50 ms samples, VmHWM)', peak.toFixed(0)],
              ['peak − before', (peak - sampled.baselineMiB).toFixed(0)],
              ['RSS after READY', sampled.lastMiB.toFixed(0)],
              [
                'the meeting as 16-bit samples / as floats (for scale)',
                `${((MEETING_MINUTES * 60 * 32000) / 2 ** 20).toFixed(0)} / ${((MEETING_MINUTES * 60 * 64000) / 2 ** 20).toFixed(0)}`,
              ],
            ],
          },
        },
      ],
      lines: [
        `submit → READY ${wallSeconds.toFixed(1)} s (RTF ${(wallSeconds / (MEETING_MINUTES * 60)).toFixed(3)}); pipeline CPU with its engines ${cpu.toFixed(1)} s`,
        `audio: ${MEETING_MINUTES} min of pink noise near -50 dBFS with the flite standup (30 s, 3 voices) every ${SPEECH_EVERY_MINUTES} min`,
        `load average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after; LOG_LEVEL warn`,
      ],
      targets: [
        {
          label: `pipeline peak RSS < ${PEAK_RSS_TARGET_MIB} MiB on a ${MEETING_MINUTES}-minute meeting`,
          pass,
          measured: `${peak.toFixed(0)} MiB`,
        },
      ],
      summary: `peak RSS ${peak.toFixed(0)} MiB (before ${sampled.baselineMiB.toFixed(0)}), READY in ${wallSeconds.toFixed(0)} s; load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
      data: {
        recordingId: id,
        bytes,
        peakMiB: peak,
        baselineMiB: sampled.baselineMiB,
        lastMiB: sampled.lastMiB,
        wallSeconds,
        cpuSeconds: cpu,
        loadBefore,
        loadAfter,
      },
    };
  },
};
