import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { consume, on, type Bus } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { PipelineConfig } from '../config';
import type { Database } from '../db/schema';
import type { JobRunner } from '../services/job-runner';
import { FairGate, GateClosedError } from '../services/fair-gate';
import { setTimer } from '../services/timers';

/**
 * The pipeline's durable consumers: transcriptions (CPU-heavy, few at once), digests (light,
 * several at once, never stuck behind a long transcription) and timer requests.
 *
 * Transcriptions: up to `transcribeWindow` jobs are taken from JetStream and held (heartbeated,
 * so not redelivered); `transcribeConcurrency` of them run at once, the next one chosen across
 * accounts (FairGate), so one account's burst does not make every other account wait behind it.
 * A transcription starting alone cuts its audio over every core (a lone meeting is ready
 * soonest); one starting beside others is cut for its share, since short chunks cost decoder
 * start-ups (pipeline-throughput: 12.0 CPU s per 1-minute meeting with 2 × 2 decoders, 8.8 with
 * 1). Either way its chunks run on the process's shared decoder slots (engines/decoder-slots.ts).
 */
export async function startConsumers(
  bus: Bus,
  db: Kysely<Database>,
  runner: JobRunner,
  logger: Logger,
  opts: Pick<PipelineConfig, 'transcribeConcurrency' | 'transcribeWindow' | 'asrDecoders' | 'ackWaitSeconds'>,
): Promise<() => Promise<void>> {
  const ackWaitMs = opts.ackWaitSeconds * 1000;
  const onError = (err: unknown, subject: string) => {
    if (err instanceof GateClosedError) logger.info({ subject }, 'held job returned to the queue: stopping');
    else logger.error({ err, subject }, 'pipeline message failed; will retry');
  };
  const gate = new FairGate(opts.transcribeConcurrency);
  const window = Math.max(opts.transcribeWindow, opts.transcribeConcurrency);
  const stops = await Promise.all([
    consume(
      bus,
      [
        on(BUS.transcribeJob, (job) =>
          gate.run(job.accountId, () =>
            runner.run(job, { decoders: Math.max(1, Math.floor(opts.asrDecoders / gate.depth.running)) }),
          ),
        ),
      ],
      {
        durable: 'pipeline-transcribe',
        concurrency: window,
        maxAckPending: window,
        ackWaitMs,
        onError,
      },
    ),
    consume(bus, [on(BUS.generateJob, (job) => runner.run(job))], {
      durable: 'pipeline-generate',
      concurrency: 4,
      ackWaitMs,
      onError,
    }),
    consume(bus, [on(BUS.timerSet, (timer) => setTimer(db, timer))], {
      durable: 'pipeline-timers',
      concurrency: 8,
      onError,
    }),
  ]);
  return async () => {
    gate.close();
    await Promise.all(stops.map((s) => s()));
  };
}
