/**
 * Long meetings through ASR_ENGINE=openai against the Whisper stand-in (pocketsphinx on each
 * piece it receives): a 60-minute and a 300-minute meeting (room noise with the flite standup
 * every 10 minutes, as pipeline-memory), each at OPENAI_ASR_CONCURRENCY 1 and then 4, submit →
 * READY through the gateway. Measured: wall time, the pipeline's peak RSS, pieces sent, bytes
 * per piece, and words lost or doubled at cuts: the transcript's words against the stand-in's
 * own answers for the pieces, joined in piece order (an alignment; both counts must be 0).
 * The concurrency-4 runs send the same pieces again: the stand-in answers them from memory after
 * as long as decoding each took the first time, so the server is equally slow without the CPU.
 */
import { promises as fs } from 'node:fs';
import { WhisperStandin, OPENAI_MAX_FILE_BYTES, type StandinRequest } from '../../support/whisper-standin';
import { createAccount, createToken } from '../lib/admin';
import { hwmMiB, loadAverage, RssSampler } from '../lib/proc';
import { fmt } from '../lib/report';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';
import { postMultipart } from '../lib/upload';
import { quietMeeting, statusOf } from './pipeline-memory';

/** REMOTE_ASR_MINUTES=60 runs the short meeting alone (a quick check of the case). */
const MEETINGS = (process.env.REMOTE_ASR_MINUTES ?? '60,300').split(',').map(Number);
const CONCURRENCY = [1, 4];
export const REMOTE_PEAK_RSS_TARGET_MIB = 300;
const SERVICES: ServiceName[] = ['account', 'recordings', 'series', 'pipeline', 'gateway'];

let standin: WhisperStandin | null = null;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const bare = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

interface RunResult {
  minutes: number;
  concurrency: number;
  wallSeconds: number;
  peakMiB: number;
  baselineMiB: number;
  pieces: number;
  requests: number;
  maxBytes: number;
  meanBytes: number;
  words: number;
  lost: number;
  doubled: number;
}

/** Words of `ref` missing from `hyp` and words of `hyp` beyond `ref`, by a longest common subsequence. */
export function alignCounts(ref: string[], hyp: string[]): { lost: number; doubled: number } {
  let prev = new Uint32Array(hyp.length + 1);
  let cur = new Uint32Array(hyp.length + 1);
  for (let i = 1; i <= ref.length; i++) {
    for (let j = 1; j <= hyp.length; j++)
      cur[j] = ref[i - 1] === hyp[j - 1] ? prev[j - 1] + 1 : Math.max(prev[j], cur[j - 1]);
    [prev, cur] = [cur, prev];
  }
  const common = prev[hyp.length];
  return { lost: ref.length - common, doubled: hyp.length - common };
}

/** The piece's number and start, from the file name the pipeline gives it (piece-0007-4200000.flac). */
const pieceOrder = (r: StandinRequest) =>
  r.fileName
    .match(/^piece-(\d+)-(\d+)\./)!
    .slice(1)
    .map(Number);

async function runOne(
  ctx: CaseContext,
  file: string,
  minutes: number,
  concurrency: number,
  token: string,
): Promise<RunResult> {
  const gateway = ctx.stack.url('gateway');
  const pid = ctx.stack.servicePid('pipeline');
  if (!pid || !standin) throw new BenchError('pipeline or stand-in is not running');
  const firstRequest = standin.requests.length;
  const rss = new RssSampler(pid);
  rss.start();
  const hwmBefore = hwmMiB(pid) ?? 0;
  const t0 = performance.now();
  const headers = { Authorization: `Bearer ${token}` };
  const up = await postMultipart(
    `${gateway}/api/v1/recordings`,
    headers,
    { naming: 'skip' },
    { field: 'audio', path: file, filename: 'long.mp3', contentType: 'audio/mpeg' },
  );
  if (up.status !== 202) throw new BenchError(`POST /api/v1/recordings answered ${up.status}: ${up.text}`);
  const id = (up.body as { recording: { id: string } }).recording.id;
  for (;;) {
    ctx.checkAborted();
    ctx.stack.assertAlive();
    const seen = await statusOf(gateway, id, token);
    if (seen?.status === 'READY') break;
    if (seen?.status === 'FAILED' || seen?.status === 'NAMING')
      throw new BenchError(`${id} ended ${seen.status}: ${seen.text}`);
    if (performance.now() - t0 > minutes * 60_000) throw new BenchError(`${id} not READY after ${minutes} minutes`);
    await sleep(1000);
  }
  const wallSeconds = (performance.now() - t0) / 1000;
  const sampled = rss.stop();
  const hwmAfter = hwmMiB(pid) ?? 0;
  const peakMiB = Math.max(sampled.peakMiB, hwmAfter > hwmBefore ? hwmAfter : 0);
  const sent = standin.requests.slice(firstRequest);
  const answered = sent
    .filter((r) => r.status === 200)
    .sort((a, b) => {
      const [ai, as] = pieceOrder(a);
      const [bi, bs] = pieceOrder(b);
      return ai - bi || as - bs;
    });
  const ref = answered.flatMap((r) => r.words.map(bare)).filter(Boolean);
  const bundle = await fetch(`${gateway}/api/v1/recordings/${id}/bundle`, { headers });
  if (bundle.status !== 200) throw new BenchError(`bundle of ${id} answered ${bundle.status}`);
  const text = ((await bundle.json()) as { transcript: { text: string } }).transcript.text;
  const hyp = text.split(/\s+/).map(bare).filter(Boolean);
  const { lost, doubled } = alignCounts(ref, hyp);
  const bytes = answered.map((r) => r.bytes);
  const result: RunResult = {
    minutes,
    concurrency,
    wallSeconds,
    peakMiB,
    baselineMiB: sampled.baselineMiB,
    pieces: answered.length,
    requests: sent.length,
    maxBytes: Math.max(...bytes),
    meanBytes: bytes.reduce((a, b) => a + b, 0) / bytes.length,
    words: hyp.length,
    lost,
    doubled,
  };
  ctx.log(
    `${minutes} min at concurrency ${concurrency}: READY in ${wallSeconds.toFixed(0)} s, peak RSS ${peakMiB.toFixed(0)} MiB, ${answered.length} pieces, lost ${lost}, doubled ${doubled}`,
  );
  return result;
}

export const remoteAsrCase: BenchCase = {
  name: 'remote-asr',
  description: `60- and 300-minute meetings through ASR_ENGINE=openai and the Whisper stand-in at concurrency 1 and 4 (pieces < 25 MB, 0 words lost/doubled, pipeline < ${REMOTE_PEAK_RSS_TARGET_MIB} MiB)`,
  implemented: true,
  services: SERVICES,
  env: async (scratch) => {
    standin = await WhisperStandin.start({ replayTiming: true });
    return {
      AUDIO_STORE: `file:${scratch}/store`,
      MAX_UPLOAD_MB: '500',
      MAX_RECORDING_MINUTES: '300',
      ASR_ENGINE: 'openai',
      OPENAI_BASE_URL: standin.url,
      OPENAI_ASR_CONCURRENCY: String(CONCURRENCY[0]),
    };
  },
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const loadBefore = loadAverage();
    try {
      const files = new Map<number, string>();
      for (const m of MEETINGS) files.set(m, await quietMeeting(m, ctx.log));
      const account = await createAccount(gateway, {
        displayName: 'bench remote-asr',
        developerMode: true,
        balanceMinutes: 2000,
      });
      const token = await createToken(gateway, account.id, {
        name: 'bench remote-asr',
        scopes: ['recordings:write', 'recordings:read'],
        expiresInDays: 30,
      });
      const results: RunResult[] = [];
      for (const concurrency of CONCURRENCY) {
        if (concurrency !== CONCURRENCY[0]) {
          const launch = ctx.stack.launchOf('pipeline');
          await ctx.stack.kill('pipeline', true);
          await ctx.stack.restart('pipeline', launch, { OPENAI_ASR_CONCURRENCY: String(concurrency) });
        }
        for (const m of MEETINGS) results.push(await runOne(ctx, files.get(m)!, m, concurrency, token.value));
      }
      const loadAfter = loadAverage();
      const long = results.filter((r) => r.minutes === 300);
      const sizes = await Promise.all(MEETINGS.map(async (m) => (await fs.stat(files.get(m)!)).size));
      return {
        tables: [
          {
            title: 'remote-asr — submit → READY through the gateway, ASR_ENGINE=openai against the Whisper stand-in',
            table: {
              headers: [
                'meeting',
                'concurrency',
                'wall s',
                'peak RSS MiB',
                'pieces',
                'requests',
                'max MB/piece',
                'mean MB/piece',
                'words',
                'lost',
                'doubled',
              ],
              rows: results.map((r) => [
                `${r.minutes} min`,
                String(r.concurrency),
                r.wallSeconds.toFixed(0),
                r.peakMiB.toFixed(0),
                String(r.pieces),
                String(r.requests),
                (r.maxBytes / 1e6).toFixed(2),
                (r.meanBytes / 1e6).toFixed(2),
                fmt.int(r.words),
                String(r.lost),
                String(r.doubled),
              ]),
            },
          },
        ],
        lines: [
          `audio: ${MEETINGS.map((m, i) => `${m - 0.5} min (${(sizes[i] / 2 ** 20).toFixed(0)} MiB mp3)`).join(', ')} of pink noise near -50 dBFS with the flite standup every 10 min; FLAC pieces`,
          'concurrency 4 ran second: the stand-in answered its pieces from memory after the time decoding each took in the first run',
          `load average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after (a shared machine)`,
        ],
        targets: [
          {
            label: 'every piece under 25 MB',
            pass: results.every((r) => r.maxBytes < OPENAI_MAX_FILE_BYTES),
            measured: `largest ${(Math.max(...results.map((r) => r.maxBytes)) / 1e6).toFixed(2)} MB`,
          },
          {
            label: 'no words lost or doubled at cuts',
            pass: results.every((r) => r.lost === 0 && r.doubled === 0),
            measured: results.map((r) => `${r.lost}/${r.doubled}`).join(', '),
          },
          {
            label: `pipeline peak RSS < ${REMOTE_PEAK_RSS_TARGET_MIB} MiB on the 300-minute meeting`,
            pass: long.every((r) => r.peakMiB < REMOTE_PEAK_RSS_TARGET_MIB),
            measured: long.map((r) => `${r.peakMiB.toFixed(0)} MiB at ${r.concurrency}`).join(', '),
          },
        ],
        summary: results
          .map((r) => `${r.minutes}m@${r.concurrency}: ${r.wallSeconds.toFixed(0)} s, ${r.peakMiB.toFixed(0)} MiB`)
          .join('; '),
        data: results,
      };
    } finally {
      await standin?.close();
      standin = null;
    }
  },
};
