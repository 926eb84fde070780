/**
 * Abuse: a token of a zero-balance account floods POST /recordings (each a one-minute WAV; refused
 * 402 INSUFFICIENT_MINUTES, then 429 RATE_LIMITED once the token's submit budget is spent) while
 * another account's whoami is measured with wrk at a light load (4 connections, 1 thread), once
 * quiet and once during the flood. The flood must not push the other account's whoami p99 above
 * twice its quiet value.
 *
 * The contract's rate limits as a deployment has them (RATE_LIMIT_SCALE 1, unlike the other
 * cases): they are the defence under test. The reader spreads its requests over READER_TOKENS
 * tokens (of 20 accounts) so its own read budget (600 per 10 minutes per token) is never the limit, and the per-IP
 * budget is raised because every client of the bench shares 127.0.0.1.
 */
import path from 'node:path';
import { createAccount, createToken } from '../lib/admin';
import { cpuLine, measureLoad, type LoadMeasurement } from '../lib/load';
import { fmt } from '../lib/report';
import { BenchError, type BenchCase, type CaseContext, type CaseReport, type ServiceName } from '../lib/types';
import { postMultipart, writeLargeWav } from '../lib/upload';

const SERVICES: ServiceName[] = ['account', 'recordings', 'series', 'gateway'];
const READER_TOKENS = 200;
/** The most active tokens an account may have. */
const TOKENS_PER_ACCOUNT = 10;
/** Submits in flight at once during the flood. */
const FLOODERS = Number(process.env.BENCH_FLOODERS ?? 8);
const P99_RATIO_TARGET = 2;
/**
 * How the flooders send: `stream` sends each body without asking (the client pays for every byte
 * it pushes, on this same machine); `expect` asks with `Expect: 100-continue` first, as curl does
 * for any body over 1 MB, and sends nothing when refused.
 */
const FLOOD_CLIENT = process.env.BENCH_FLOOD_CLIENT === 'expect' ? 'expect' : 'stream';

export const submitFloodCase: BenchCase = {
  name: 'submit-flood',
  description:
    'whoami p99 of one account, quiet and while a zero-balance token floods submits (402, then 429 past its budget; production rate limits)',
  implemented: true,
  services: SERVICES,
  env: { RATE_LIMIT_SCALE: '1', IP_RATE_LIMIT: '1000000' },
  async run(ctx: CaseContext): Promise<CaseReport> {
    const gateway = ctx.stack.url('gateway');
    const readerTokens: string[] = [];
    for (let a = 0; a < READER_TOKENS / TOKENS_PER_ACCOUNT; a++) {
      const reader = await createAccount(gateway, {
        displayName: `bench reader ${a}`,
        developerMode: true,
        balanceMinutes: 100,
      });
      for (let i = 0; i < TOKENS_PER_ACCOUNT; i++)
        readerTokens.push(
          (await createToken(gateway, reader.id, { name: `reader ${i}`, scopes: ['account:read'], expiresInDays: 30 }))
            .value,
        );
    }
    const broke = await createAccount(gateway, { displayName: 'bench broke', developerMode: true, balanceMinutes: 0 });
    const brokeToken = await createToken(gateway, broke.id, {
      name: 'flood',
      scopes: ['recordings:write'],
      expiresInDays: 30,
    });
    const wav = path.join(ctx.scratchDir, 'minute.wav');
    await writeLargeWav(wav, 16_000 * 2 * 60);
    const file = { field: 'audio', path: wav, filename: 'minute.wav', contentType: 'audio/wav' };
    const submit = () =>
      postMultipart(
        `${gateway}/api/v1/recordings`,
        { Authorization: `Bearer ${brokeToken.value}` },
        {},
        file,
        60_000,
        undefined,
        FLOOD_CLIENT === 'expect',
      );
    const probe = await submit();
    if (probe.status !== 402)
      throw new BenchError(`a zero-balance submit answered ${probe.status}, not 402: ${probe.text}`);

    const light = { ...ctx, opts: { ...ctx.opts, connections: 4, threads: 1 } };
    const target = {
      label: 'reader whoami',
      url: `${gateway}/api/v1/whoami`,
      headers: async () => ({}),
      rotateHeader: { name: 'Authorization', values: readerTokens.map((t) => `Bearer ${t}`) },
    };
    const quiet = await measureLoad(light, { ...target, label: 'whoami, quiet' }, SERVICES);
    ctx.checkAborted();

    let stop = false;
    const statuses = new Map<number, number>();
    const flood = Array.from({ length: FLOODERS }, async () => {
      while (!stop) {
        const r = await submit().catch(() => ({ status: 0 }));
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
      }
    });
    let busy: LoadMeasurement;
    try {
      // The flooders run in this process: their CPU is shown apart from the services'.
      busy = await measureLoad(
        light,
        {
          ...target,
          label: 'whoami, during the flood',
          extraGroups: [{ label: 'flood client', pids: () => [process.pid] }],
        },
        SERVICES,
      );
    } finally {
      stop = true;
      await Promise.all(flood);
    }
    const ratio = busy.wrk.latencyMs.p99 / quiet.wrk.latencyMs.p99;
    const row = (m: LoadMeasurement) => [
      m.label,
      fmt.int(m.wrk.requestsPerSec),
      fmt.ms(m.wrk.latencyMs.p50),
      fmt.ms(m.wrk.latencyMs.p99),
      fmt.int(m.wrk.requests),
      m.loadBefore.toFixed(2),
    ];
    const floodLine = [...statuses]
      .sort()
      .map(([s, n]) => `${s}: ${n}`)
      .join(', ');
    return {
      tables: [
        {
          title: `submit flood — whoami at 4 connections, ${ctx.opts.duration} s; ${FLOODERS} concurrent one-minute submits from a zero-balance token (flood client: ${FLOOD_CLIENT})`,
          table: {
            headers: ['run', 'req/s', 'p50 ms', 'p99 ms', 'requests', 'load avg before'],
            rows: [row(quiet), row(busy)],
          },
        },
      ],
      lines: [
        `CPU: ${cpuLine(quiet)}`,
        `CPU: ${cpuLine(busy)}`,
        `flood answers (status: count): ${floodLine}`,
        `p99 during the flood / quiet: ${fmt.ratio(ratio)}`,
      ],
      data: { quiet: quiet.wrk, busy: busy.wrk, flood: Object.fromEntries(statuses), flooders: FLOODERS },
      summary: `submit-flood: whoami p99 ${fmt.ms(quiet.wrk.latencyMs.p99)} ms quiet, ${fmt.ms(busy.wrk.latencyMs.p99)} ms during the flood (${fmt.ratio(ratio)})`,
      targets: [
        {
          label: `whoami p99 during a zero-balance submit flood <= ${P99_RATIO_TARGET}x quiet`,
          pass: ratio <= P99_RATIO_TARGET,
          measured: `${fmt.ratio(ratio)}`,
        },
      ],
    };
  },
};
