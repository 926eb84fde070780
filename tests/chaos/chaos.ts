/**
 * The fault run (issue 11): meetings in flight (submits, naming, retries, Asks) while each service
 * in turn is SIGKILLed and started again, then its private NATS and its private Postgres are
 * restarted. Services run as real processes, as `pnpm start` runs them (the bench's
 * Stack). Afterwards it checks what people trust us with: every accepted meeting READY or FAILED,
 * one capture per meeting past its transcript and none for a failed one, no open hold after the
 * reconciler, no Ask charged twice, each event once in the feed and in order per meeting, and the
 * money by amounts: each meeting charged its price, each Ask its quote, each balance its ledger.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { benchEnv, Stack } from '../bench/lib/stack';
import { createAccount, createToken } from '../bench/lib/admin';
import type { BenchOptions, ServiceName } from '../bench/lib/types';
import { startPrivatePostgres } from '../support/private-postgres';
import { speakMeeting } from '../support/speak-meeting';
import { FaultChecks, type ChaosCounts } from './checks';
import { seededRandom as seeded } from '../support/seeded-random';

export interface ChaosOptions {
  seed: number;
  meetings: number;
  asks: number;
  /** Restart the run's own Postgres once (a server of its own: nobody else's database is touched). */
  restartPostgres: boolean;
  /** First of 12 consecutive free ports (the run's own Postgres takes the eleventh). */
  basePort: number;
  logDir: string;
  /** How long meetings may take to become final after the faults. */
  settleSeconds: number;
  log: (m: string) => void;
}

const SERVICES: ServiceName[] = ['account', 'series', 'events', 'recordings', 'ask', 'pipeline', 'gateway'];
/** How long meetings may still take to become final after the last fault. */
const AFTER_FAULTS_MS = 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface ChaosClient {
  accountId: string;
  token: string;
}

/** Sends like a well-behaved client (contract: retry guidance): same key, growing waits, until an answer that is not 5xx, 429 or 503. */
async function send(url: string, init: () => RequestInit, deadline: number): Promise<{ status: number; body: any }> {
  let wait = 200;
  for (;;) {
    try {
      const res = await fetch(url, { ...init(), signal: AbortSignal.timeout(30_000) });
      const body = (await res.json().catch(() => null)) as any;
      if (res.status < 500 && res.status !== 429) return { status: res.status, body };
      if (res.status === 503 && body?.error?.code !== 'UPLOAD_IN_PROGRESS' && Date.now() > deadline)
        return { status: res.status, body };
    } catch {
      // the gateway is down right now
    }
    if (Date.now() > deadline) throw new Error(`no answer from ${url} in time`);
    await sleep(wait);
    wait = Math.min(2000, wait * 1.5);
  }
}

export async function runChaos(o: ChaosOptions): Promise<ChaosCounts> {
  const started = Date.now();
  const rng = seeded(o.seed);
  mkdirSync(o.logDir, { recursive: true });
  const names = [...SERVICES, 'nats', 'redis'] as const;
  const ports = Object.fromEntries(names.map((n, i) => [n, o.basePort + i]));
  const postgres = startPrivatePostgres(o.basePort + 10);
  const opts: BenchOptions = {
    root: path.resolve(__dirname, '../..'),
    duration: 0,
    warmup: 0,
    connections: 1,
    threads: 1,
    ports,
    databaseUrl: postgres.url('meeting_memory_chaos'),
    databaseUrlGiven: true,
    // As pnpm start runs them: the gateway forwards over Unix sockets (a killed service's is refused, as its port).
    hops: 'local',
    natsUrl: null,
    redisUrl: null,
    serviceEnv: {
      BUS_NAMESPACE: 'chaos.',
      LOG_LEVEL: 'warn',
      NAMING_AUTO_WAIT_SECONDS: '1',
      NAMING_SINGLE_VOICE_WAIT_SECONDS: '1',
      STALE_HOLD_SECONDS: '5',
      HOLD_RECONCILE_SECONDS: '2',
      UPLOAD_CLAIM_STALE_SECONDS: '10',
      PIPELINE_ACK_WAIT_SECONDS: '5',
      PIPELINE_AUTO_RETRY_DELAY_SECONDS: '1',
      PIPELINE_TRANSCRIBE_CONCURRENCY: '2',
      DAILY_MEETING_LIMIT: '10000',
      DAILY_ASK_LIMIT: '10000',
    },
    cpuProf: [],
    logDir: o.logDir,
    compiled: null,
    tsx: false,
    routes: null,
  };
  const stack = new Stack(opts, benchEnv(opts));
  const gw = stack.url('gateway');
  const faults: string[] = [];
  try {
    await stack.start(SERVICES, o.log);
    o.log(`stack up in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    // Most meetings are a second of silence: cheap for the pipeline (no speech to decode), and a
    // mix of outcomes (the first few of an account's silent meetings fail for free, the rest are
    // charged and end READY).
    const silence = path.join(o.logDir, 'silence-1s.wav');
    execFileSync('ffmpeg', [
      '-nostdin',
      '-v',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      'anullsrc=r=16000:cl=mono',
      '-t',
      '1',
      silence,
    ]);
    const speech = (
      await speakMeeting([
        ['slt', 'Good morning. We decided to ship the release on Friday.'],
        ['rms', 'Great. I will write the release notes tomorrow.'],
      ])
    ).path;
    const audio = { silence: readFileSync(silence), speech: readFileSync(speech) };

    const clients: ChaosClient[] = [];
    for (let i = 0; i < Math.ceil(o.meetings / 10); i++) {
      const account = await createAccount(gw, { developerMode: true, balanceMinutes: 100_000 });
      const token = await createToken(gw, account.id, {
        name: 'chaos',
        scopes: ['recordings:write', 'recordings:read', 'recordings:query', 'account:read'],
      });
      clients.push({ accountId: account.id, token: token.value });
    }
    const deadline = Date.now() + (o.settleSeconds + 120) * 1000;
    const auth = (c: ChaosClient) => ({ Authorization: `Bearer ${c.token}` });
    const accepted: { id: string; client: ChaosClient; speech: boolean; price: number }[] = [];
    const counts = { submits: 0, refused: 0, namingSkips: 0, retries: 0, asks: 0, askRepeats: 0 };

    const submitOne = async (i: number) => {
      const client = clients[i % clients.length];
      const isSpeech = i % 10 === 0;
      const res = await send(
        `${gw}/api/v1/recordings`,
        () => {
          const form = new FormData();
          form.set('audio', new Blob([isSpeech ? audio.speech : audio.silence], { type: 'audio/wav' }), 'm.wav');
          return {
            method: 'POST',
            headers: { ...auth(client), 'Idempotency-Key': `chaos-${o.seed}-${i}` },
            body: form,
          };
        },
        deadline,
      );
      counts.submits++;
      if (res.status === 202)
        accepted.push({ id: res.body.recording.id, client, speech: isSpeech, price: res.body.recording.minutes });
      else counts.refused++;
    };

    // The faults run while meetings are sent and worked on.
    const order = [...SERVICES].sort(() => rng() - 0.5);
    // When the last fault ended: meetings get a while after it whatever the load made of the schedule.
    let faultsDoneAt = 0;
    const faultRun = (async () => {
      await sleep(1500);
      for (const name of order) {
        const was = stack.launchOf(name);
        await stack.kill(name);
        faults.push(`SIGKILL ${name}`);
        await sleep(300 + rng() * 700);
        await stack.restart(name, was);
        await sleep(500 + rng() * 1000);
      }
      const nats = stack.launchOf('nats');
      await stack.kill('nats', true);
      await sleep(1000);
      await stack.restart('nats', nats);
      faults.push('restart NATS');
      if (o.restartPostgres) {
        postgres.restart();
        faults.push('restart Postgres');
      }
    })().finally(() => (faultsDoneAt = Date.now()));

    const work: Promise<void>[] = [];
    for (let i = 0; i < o.meetings; i++) {
      work.push(submitOne(i));
      if (i % 8 === 7) await Promise.all(work.splice(0));
    }
    await Promise.all(work);
    o.log(`${accepted.length} meetings accepted (${counts.refused} refused)`);

    // Naming, retries and Asks while the faults go on; then every meeting must become final.
    const asked = new Map<string, string>();
    /** Each Ask's key with the quote taken just before it was sent (what it must be charged). */
    const quotes: { key: string; quote: number }[] = [];
    const askedDone = new Set<string>();
    const settleBy = Date.now() + o.settleSeconds * 1000;
    const pending = new Set(accepted.map((a) => a.id));
    // Until every meeting is final, or both the settle time and a minute after the last fault are over
    // (on a loaded machine the faults may end after the settle time: a Postgres restart then would
    // leave its meetings no time at all).
    const settling = () => Date.now() < settleBy || !faultsDoneAt || Date.now() < faultsDoneAt + AFTER_FAULTS_MS;
    while (pending.size && settling()) {
      for (const m of accepted.filter((a) => pending.has(a.id))) {
        const s = await send(
          `${gw}/api/v1/recordings/${m.id}/status`,
          () => ({ headers: auth(m.client) }),
          deadline,
        ).catch(() => null);
        const status = s?.body?.status;
        if (status === 'NAMING' && rng() < 0.5) {
          await send(
            `${gw}/api/v1/recordings/${m.id}/naming`,
            () => ({
              method: 'POST',
              headers: { ...auth(m.client), 'Content-Type': 'application/json' },
              body: '{"action":"skip"}',
            }),
            deadline,
          ).catch(() => null);
          counts.namingSkips++;
        } else if (status === 'FAILED' && s?.body?.error?.retryable && !s.body.autoRetry) {
          await send(
            `${gw}/api/v1/recordings/${m.id}/retry`,
            () => ({ method: 'POST', headers: auth(m.client) }),
            deadline,
          ).catch(() => null);
          counts.retries++;
        } else if (status === 'READY' || (status === 'FAILED' && !s?.body?.error?.retryable)) {
          pending.delete(m.id);
          if (status === 'READY' && m.speech && asked.size < o.asks)
            asked.set(m.id, `chaos-ask-${o.seed}-${asked.size}`);
        }
      }
      for (const [id, key] of [...asked].filter(([, k]) => !askedDone.has(k))) {
        askedDone.add(key);
        const m = accepted.find((a) => a.id === id)!;
        const quote = await send(
          `${gw}/api/v1/recordings/${id}/ask/quote`,
          () => ({ headers: auth(m.client) }),
          deadline,
        ).catch(() => null);
        if (quote?.status !== 200) continue;
        quotes.push({ key, quote: quote.body.minutes });
        const ask = () => ({
          method: 'POST',
          headers: { ...auth(m.client), 'Content-Type': 'application/json', 'Idempotency-Key': key },
          body: '{"question":"When do we ship the release?"}',
        });
        // Each Ask is sent twice with its key (the second may land across a restart): charged once.
        for (let k = 0; k < 2; k++)
          if ((await send(`${gw}/api/v1/recordings/${id}/ask`, ask, deadline).catch(() => null))?.status === 200)
            k ? counts.askRepeats++ : counts.asks++;
      }
      await sleep(500);
    }
    await faultRun;
    o.log(`faults: ${faults.join(', ')}`);
    // Let the reconciler pass over holds older than its bound (5 s here, every 2 s).
    await sleep(8_000);
    const checks = new FaultChecks(opts.databaseUrl, gw);
    return await checks.run(accepted, quotes, {
      ...counts,
      faults,
      seconds: Math.round((Date.now() - started) / 1000),
    });
  } finally {
    await stack.stop();
    stack.killNow();
    postgres.stop();
  }
}
