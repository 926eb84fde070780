import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { Logger } from 'pino';
import { enqueue } from '@mm/bus';
import { serviceCounter } from '@mm/http';
import { BUS, FAILURE_CODES, isRetryable, type FailureCode, type PipelineJob } from '@mm/contract';
import type { ObjectStore } from '@mm/store';
import type { Database } from '../db/schema';
import type { Engines } from './engines.types';
import { storeCheckpoint } from './piece-checkpoint';

/** A job as the pipeline runs it (the table's transcribeJob and generateJob). */
export type JobMessage = PipelineJob;

const codeOf = (err: unknown, step: JobMessage['step']): FailureCode => {
  const code = (err as { code?: unknown })?.code;
  if (typeof code === 'string' && (FAILURE_CODES as readonly string[]).includes(code)) return code as FailureCode;
  return step === 'transcribe' ? 'TRANSCRIBE_FAILED' : 'GENERATE_FAILED';
};

/** `pipeline_jobs_failed_total`: the alert on pipeline failures (k8s/components/alerts) reads it. */
const jobFailures = () =>
  serviceCounter(
    'pipeline',
    'pipeline_jobs_failed_total',
    'Pipeline jobs that failed, by step, failure code and whether no retry is left',
    ['step', 'code', 'final'],
  );

/**
 * Runs one job message: records it, announces the start, runs the engine, and commits the result
 * (or the failure, with an automatic retry timer while attempts remain) together with its outbox
 * message. A job already done is not run again; a job interrupted by a crash is redelivered and
 * simply runs again (engines write only under the job's own keys).
 */
export class JobRunner {
  constructor(
    private readonly deps: {
      db: Kysely<Database>;
      store: ObjectStore;
      engines: Engines;
      logger: Logger;
      autoRetries: number;
      autoRetryDelaySeconds: number;
    },
  ) {}

  /** `decoders`: the cores a transcription may use now (the consumer shares them among running jobs). */
  async run(m: JobMessage, opts: { decoders?: number } = {}): Promise<void> {
    const { db, logger } = this.deps;
    const proceed = await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('job')
        .values({
          id: m.jobId,
          recordingId: m.recordingId,
          step: m.step,
          status: 'running',
          attempt: m.attempt,
          errorCode: null,
          payload: JSON.stringify(m),
          startedAt: null,
          finishedAt: null,
          engineMs: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute();
      const job = await trx
        .selectFrom('job')
        .selectAll()
        .where('id', '=', m.jobId)
        .forUpdate()
        .executeTakeFirstOrThrow();
      if (job.status === 'done' || job.attempt > m.attempt || (job.status === 'failed' && job.attempt === m.attempt))
        return false;
      await trx
        .updateTable('job')
        .set({ status: 'running', attempt: m.attempt, startedAt: sql`now()` })
        .where('id', '=', m.jobId)
        .execute();
      await enqueue(trx, BUS.jobStarted, `started:${m.jobId}:${m.attempt}`, {
        recordingId: m.recordingId,
        jobId: m.jobId,
        step: m.step,
      });
      return true;
    });
    if (!proceed) return;

    const started = Date.now();
    const workDir = path.join(this.deps.store.scratchDir, 'work', m.recordingId, m.jobId);
    await mkdir(workDir, { recursive: true });
    try {
      const resultKey = await this.execute(m, workDir, opts.decoders);
      const engineMs = Date.now() - started;
      logger.info({ jobId: m.jobId, recordingId: m.recordingId, step: m.step, engineMs }, 'job done');
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('job')
          .set({ status: 'done', finishedAt: sql`now()`, engineMs })
          .where('id', '=', m.jobId)
          .execute();
        const done = { recordingId: m.recordingId, jobId: m.jobId };
        if (m.step === 'transcribe')
          await enqueue(trx, BUS.jobTranscribed, `result:${m.jobId}`, { ...done, transcriptKey: resultKey });
        else await enqueue(trx, BUS.jobGenerated, `result:${m.jobId}`, { ...done, digestKey: resultKey });
      });
    } catch (err) {
      const code = codeOf(err, m.step);
      const final = !isRetryable(code) || m.attempt > this.deps.autoRetries;
      logger.warn(
        { jobId: m.jobId, recordingId: m.recordingId, step: m.step, code, final, err: String(err) },
        'job failed',
      );
      jobFailures().inc({ step: m.step, code, final: String(final) });
      await db.transaction().execute(async (trx) => {
        await trx
          .updateTable('job')
          .set({ status: 'failed', errorCode: code, finishedAt: sql`now()` })
          .where('id', '=', m.jobId)
          .execute();
        await enqueue(trx, BUS.jobFailed, `failed:${m.jobId}:${m.attempt}`, {
          recordingId: m.recordingId,
          jobId: m.jobId,
          step: m.step,
          code,
          final,
        });
        if (!final) {
          const next: JobMessage = { ...m, attempt: m.attempt + 1 };
          await trx
            .insertInto('timer')
            .values({
              id: `retry:${m.jobId}:${next.attempt}`,
              kind: 'retry',
              recordingId: m.recordingId,
              runAt: new Date(Date.now() + this.deps.autoRetryDelaySeconds * 1000 * m.attempt),
              payload: JSON.stringify(next),
              firedAt: null,
            })
            .onConflict((oc) => oc.column('id').doNothing())
            .execute();
        }
      });
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
  }

  /** Runs the engine and writes its result under the job's own key; returns that key. */
  private async execute(m: JobMessage, workDir: string, decoders: number | undefined): Promise<string> {
    const { store, engines } = this.deps;
    if (m.step === 'transcribe') {
      // Pieces a remote recognizer finished survive a failed try (a retry sends only the rest).
      const pieces = `work/${m.recordingId}/asr-pieces`;
      const checkpoint = storeCheckpoint(store, pieces);
      const doc = await store.withLocalFile(m.audioKey!, (audioPath) =>
        engines.transcribe({ audioPath, keyterms: m.keyterms ?? [], workDir, decoders, checkpoint }),
      );
      const key = `work/${m.recordingId}/transcript-${m.jobId}.json`;
      await store.putJson(key, doc);
      await store.remove(pieces);
      return key;
    }
    const transcript = await store.getJson<{
      language: string;
      speakers: { label: string; name: string | null }[];
      segments: never[];
    }>(m.transcriptKey!);
    const digest = await engines.generate({
      kind: m.kind ?? 'MEETING',
      outputLanguage: m.outputLanguage ?? 'MATCH',
      transcript,
      memory: m.memory ?? [],
    });
    const key = `work/${m.recordingId}/digest-${m.jobId}.json`;
    await store.putJson(key, digest);
    return key;
  }
}
