/**
 * A slow client's largest upload: a WAV just under the upload limit (MAX_UPLOAD_MB, 500 MiB) sent
 * at 1 MB/s (10^6 bytes a second) through the gateway, about nine minutes. Node's default request
 * timeout (300 s) would cut it; the services size theirs to the limit (UPLOAD_REQUEST_TIMEOUT_MS,
 * libs/http/src/server.ts). The answer must be 202 and the meeting must be listed with its
 * length. The gateway's and recordings' memory is sampled to show the body streams through.
 */
import path from 'node:path';
import { UPLOAD_REQUEST_TIMEOUT_MS } from '../../../libs/http/src/server';
import { createAccount, createToken } from '../lib/admin';
import { loadAverage, RssSampler } from '../lib/proc';
import { fmt } from '../lib/report';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';
import { postMultipart, writeLargeWav } from '../lib/upload';

const MiB = 1024 * 1024;
const LIMIT_MIB = 500;
/** Just under the limit: the multipart framing and the WAV header fit in the last MiB. */
const FILE_BYTES = (LIMIT_MIB - 1) * MiB;
/** `BENCH_SLOW_UPLOAD_RATE` (bytes a second) changes it for a quick try; the target is defined at 1 MB/s. */
const RATE = Number(process.env.BENCH_SLOW_UPLOAD_RATE ?? 1_000_000);
const SERVICES: ServiceName[] = ['account', 'recordings', 'series', 'gateway'];

export const uploadSlowCase: BenchCase = {
  name: 'upload-slow',
  description: `a ${LIMIT_MIB} MiB upload at 1 MB/s through the gateway completes (202), about ${Math.round(FILE_BYTES / 1_000_000 / 60)} minutes`,
  implemented: true,
  services: SERVICES,
  env: (scratch) => ({
    AUDIO_STORE: `file:${path.join(scratch, 'store')}`,
    MAX_UPLOAD_MB: String(LIMIT_MIB),
    MAX_RECORDING_MINUTES: '300',
  }),
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const file = path.join(ctx.scratchDir, 'slow-upload.wav');
    const audioMs = await writeLargeWav(file, FILE_BYTES - 44);
    const account = await createAccount(gateway, {
      displayName: 'bench upload-slow',
      developerMode: true,
      balanceMinutes: 1000,
    });
    const token = await createToken(gateway, account.id, {
      name: 'bench upload-slow',
      scopes: ['recordings:write', 'recordings:read'],
      expiresInDays: 30,
    });
    const samplers = (['gateway', 'recordings'] as const).map((s) => {
      const pid = ctx.stack.servicePid(s);
      if (!pid) throw new BenchError(`${s} is not running`);
      return { service: s, rss: new RssSampler(pid, 500) };
    });
    const loadBefore = loadAverage();
    samplers.forEach((s) => s.rss.start());
    ctx.log(
      `sending ${fmt.int(FILE_BYTES / MiB)} MiB (${(audioMs / 60_000).toFixed(0)} min of audio) at ${fmt.int(RATE)} bytes/s`,
    );
    const headers = { Authorization: `Bearer ${token.value}`, 'Idempotency-Key': `slow-upload-${Date.now()}` };
    const up = await postMultipart(
      `${gateway}/api/v1/recordings`,
      headers,
      { naming: 'skip' },
      { field: 'audio', path: file, filename: 'slow.wav', contentType: 'audio/wav' },
      UPLOAD_REQUEST_TIMEOUT_MS + 60_000,
      RATE,
    );
    const memory = samplers.map((s) => ({ service: s.service, ...s.rss.stop() }));
    const loadAfter = loadAverage();
    if (up.status !== 202)
      throw new BenchError(`the slow upload answered ${up.status} after ${(up.ms / 1000).toFixed(0)} s: ${up.text}`);
    const recording = (up.body as { recording: { id: string; minutes: number } }).recording;
    const seconds = up.ms / 1000;
    const expectedMinutes = Math.ceil(audioMs / 60_000);
    const pass = recording.minutes === expectedMinutes;
    return {
      tables: [
        {
          title: `upload-slow — ${fmt.int(up.bytes / MiB)} MiB request at ${fmt.int(RATE)} bytes/s`,
          table: {
            headers: ['service', 'RSS before MiB', 'peak MiB', 'after MiB'],
            rows: memory.map((m) => [m.service, m.baselineMiB.toFixed(0), m.peakMiB.toFixed(0), m.lastMiB.toFixed(0)]),
          },
        },
      ],
      lines: [
        `202 after ${seconds.toFixed(1)} s (${(up.bytes / 1_000_000 / seconds).toFixed(2)} MB/s); recording ${recording.id}, ${recording.minutes} minutes held`,
        `server request timeout ${UPLOAD_REQUEST_TIMEOUT_MS / 1000} s (Node's default 300 s would have cut it)`,
        `load average: ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after`,
      ],
      targets: [
        {
          label: `a ${LIMIT_MIB} MiB upload at ${fmt.int(RATE)} bytes/s is accepted (202, its ${expectedMinutes} minutes held)`,
          pass,
          measured: `${up.status} after ${seconds.toFixed(0)} s, ${recording.minutes} minutes`,
        },
      ],
      summary: `202 after ${seconds.toFixed(0)} s for ${fmt.int(up.bytes / MiB)} MiB; load ${loadBefore.toFixed(2)} → ${loadAfter.toFixed(2)}`,
      data: { bytes: up.bytes, ms: up.ms, rate: RATE, minutes: recording.minutes, memory, loadBefore, loadAfter },
    };
  },
};
