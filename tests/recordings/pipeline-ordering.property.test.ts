import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { connectBus, type Bus } from '@mm/bus';
import { openDatabase } from '@mm/db';
import { createLogger } from '@mm/http';
import { openStore } from '../../libs/store/src';
import type { Database } from '../../services/recordings/src/db/schema';
import { createUseCases, type UseCases } from '../../services/recordings/src/usecases';
import { busCall, type BusCall } from '../../services/recordings/src/usecases/context';
import { insideTransaction } from '../../services/recordings/src/db/transaction';
import { applyPipelineResult } from '../../services/recordings/src/bus/pipeline-results.consumer';
import { startStack, type Stack } from '../support/stack';
import { toneWav } from '../support/media';
import { ledger, meetingRow, openHolds, PipelineVoice, RESULT_ENTRIES } from '../support/money';

/**
 * The pipeline's results arrive at least once and in any order. This feeds the result handlers
 * (the consumer's dispatch and the result use cases, against the stack's real database and
 * wallet) random permutations of a meeting's messages with duplicates, stale `started` after a
 * final failure among them. Afterwards the meeting is final (READY or FAILED for good) whenever
 * its last job has finished, and its money adds up: one capture once past its transcript, none
 * and no open hold when its transcription failed for good. Seeded: PROPERTY_SEED repeats a run.
 */
let stack: Stack;
let bus: Bus;
let useCases: UseCases;
let close: () => Promise<void>;
/** Wallet, settings or memory requests and store calls made inside a recordings transaction (none may be). */
const insideTx: string[] = [];
const logger = createLogger('ordering-test', 'silent');

beforeAll(async () => {
  stack = await startStack();
  bus = await connectBus(stack.natsUrl, 'recordings', stack.busNamespace);
  const { db, pool } = openDatabase<Database>({ url: stack.env.DATABASE_URL!, schema: 'recordings' });
  const realStore = await openStore(stack.audioStore);
  const toBus = busCall(bus.nc);
  const call: BusCall = (entry, payload, o) => {
    if (insideTransaction()) insideTx.push(entry.name);
    return toBus(entry, payload, o);
  };
  const store = new Proxy(realStore, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if (insideTransaction()) insideTx.push(`store.${String(prop)}`);
        return v.apply(target, args);
      };
    },
  });
  useCases = createUseCases(
    { db, call, store, logger },
    {
      naming: { autoWaitSeconds: 60, forceOnDeadlineHours: 0, singleVoiceWaitSeconds: 5 },
      staleClaimSeconds: 900,
      maxRecordingMinutes: 240,
      tools: { ffmpeg: 'ffmpeg', ffprobe: 'ffprobe' },
    },
  );
  close = async () => {
    await db.destroy();
    void pool;
    await bus.close();
  };
}, 60_000);
afterAll(async () => {
  await close();
  await stack.stop();
});

type Outcome = 'ok' | 'TRANSCRIBE_FAILED' | 'NO_SPEECH' | 'AUDIO_CORRUPT' | 'GENERATE_FAILED';
interface Message {
  subject: 'started' | 'transcribed' | 'generated' | 'failed';
  payload: Record<string, unknown>;
}

/** The messages one job's attempts publish: started and a non-final failure per failed attempt, then the outcome. */
function jobMessages(
  id: string,
  jobId: string,
  step: 'transcribe' | 'generate',
  failures: number,
  outcome: Outcome,
  resultKey: string,
): Message[] {
  const out: Message[] = [];
  for (let a = 1; a <= failures + 1; a++) {
    out.push({ subject: 'started', payload: { recordingId: id, jobId, step } });
    if (a <= failures)
      out.push({
        subject: 'failed',
        payload: {
          recordingId: id,
          jobId,
          step,
          code: step === 'transcribe' ? 'TRANSCRIBE_FAILED' : 'GENERATE_FAILED',
          final: false,
        },
      });
  }
  if (outcome !== 'ok')
    out.push({ subject: 'failed', payload: { recordingId: id, jobId, step, code: outcome, final: true } });
  else if (step === 'transcribe')
    out.push({ subject: 'transcribed', payload: { recordingId: id, jobId, transcriptKey: resultKey } });
  else out.push({ subject: 'generated', payload: { recordingId: id, jobId, digestKey: resultKey } });
  return out;
}

/** The messages with `dups` repeated, in the order of `keys` (one sort key per message). */
function shuffle(messages: Message[], dups: number[], keys: number[]): Message[] {
  const all = [...messages, ...dups.map((d) => messages[d % messages.length])];
  return all
    .map((m, i) => ({ m, k: keys[i % keys.length] * 1000 + i }))
    .sort((a, b) => a.k - b.k)
    .map((x) => x.m);
}

async function deliver(messages: Message[]): Promise<void> {
  for (const msg of messages)
    await applyPipelineResult(useCases, logger, RESULT_ENTRIES[msg.subject].subject, msg.payload);
}

const scenario = fc.record({
  transcribeFailures: fc.nat(2),
  transcribeOutcome: fc.constantFrom<Outcome>('ok', 'ok', 'TRANSCRIBE_FAILED', 'NO_SPEECH', 'AUDIO_CORRUPT'),
  generateFailures: fc.nat(1),
  generateOutcome: fc.constantFrom<Outcome>('ok', 'ok', 'GENERATE_FAILED'),
  dups1: fc.array(fc.nat(), { maxLength: 4 }),
  dups2: fc.array(fc.nat(), { maxLength: 4 }),
  keys1: fc.array(fc.nat(1000), { minLength: 12, maxLength: 12 }),
  keys2: fc.array(fc.nat(1000), { minLength: 12, maxLength: 12 }),
});

describe('pipeline results in any order', () => {
  it('leave every meeting final and its money right', async () => {
    await fc.assert(
      fc.asyncProperty(scenario, async (s) => {
        const account = await stack.admin.account({ balanceMinutes: 20 });
        const token = await stack.admin.token(account.id, ['recordings:write']);
        const sent = await stack.api
          .post('/api/v1/recordings')
          .set('Authorization', `Bearer ${token.value}`)
          .field('naming', 'skip')
          .attach('audio', readFileSync(toneWav(3)), { filename: 'a.wav', contentType: 'audio/wav' });
        expect(sent.status).toBe(202);
        const id = sent.body.recording.id as string;

        const t = await meetingRow(stack, id);
        const transcriptKey = PipelineVoice.writeArtefact(stack, `work/${id}/transcript-${t.jobId}.json`, {
          language: 'en',
          speakers: [{ label: 'A', name: null }],
          segments: [{ index: 0, speaker: 'A', startMs: 0, endMs: 2000, text: 'We ship on Friday.' }],
          stats: {},
        });
        const transcribeJob = jobMessages(
          id,
          t.jobId,
          'transcribe',
          s.transcribeFailures,
          s.transcribeOutcome,
          transcriptKey,
        );
        await deliver(shuffle(transcribeJob, s.dups1, s.keys1));

        // A transcript (or a silent meeting charged past the free ones) asks for a digest: its job's
        // messages arrive next, mixed with stale repeats of the transcription's.
        const g = await meetingRow(stack, id);
        const generating = g.status === 'GENERATING';
        if (generating) {
          const digestKey = PipelineVoice.writeArtefact(stack, `work/${id}/digest-${g.jobId}.json`, {
            type: 'MEETING',
            language: 'en',
            title: 'Friday',
            sections: [],
            markdown: '# Friday\n',
          });
          const generateJob = jobMessages(id, g.jobId, 'generate', s.generateFailures, s.generateOutcome, digestKey);
          await deliver(shuffle([...generateJob, ...transcribeJob], s.dups2, s.keys2));
        }

        const end = await meetingRow(stack, id);
        const entries = await ledger(stack, account.id);
        const captures = entries.filter((e) => e.kind === 'capture');
        // Final: READY, or FAILED with no automatic retry pending (no job would ever move it).
        expect(end.status === 'READY' || (end.status === 'FAILED' && !end.autoRetryPending)).toBe(true);
        if (generating) {
          expect(end.status).toBe(s.generateOutcome === 'ok' ? 'READY' : 'FAILED');
          expect([captures.length, end.charged]).toEqual([1, true]);
        } else {
          expect(end.status).toBe('FAILED');
          expect([captures.length, end.charged]).toEqual([0, false]);
        }
        expect(await openHolds(stack, account.id)).toEqual([]);
        // The real wallet, settings and store, never reached from inside a transaction.
        expect(insideTx).toEqual([]);
      }),
      { seed: Number(process.env.PROPERTY_SEED ?? 20261123), numRuns: Number(process.env.PROPERTY_RUNS ?? 30) },
    );
  }, 120_000);
});
