import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { consume, type Bus } from '@mm/bus';
import type { Database } from '../db/schema';
import type { JobMessage, JobRunner } from '../services/job-runner';
import { setTimer } from '../services/timers';

/**
 * The pipeline's durable consumers: transcriptions (CPU-heavy, few at once), digests (light,
 * several at once, never stuck behind a long transcription) and timer requests.
 */
export async function startConsumers(bus: Bus, db: Kysely<Database>, runner: JobRunner, logger: Logger, opts: { transcribeConcurrency: number; ackWaitSeconds: number }): Promise<() => Promise<void>> {
  const ackWaitMs = opts.ackWaitSeconds * 1000;
  const onError = (err: unknown, subject: string) => logger.error({ err, subject }, 'pipeline message failed; will retry');
  const stops = await Promise.all([
    consume(bus, { stream: 'PIPELINE', durable: 'pipeline-transcribe', filterSubject: 'pipeline.job.transcribe', concurrency: opts.transcribeConcurrency, ackWaitMs, onError }, (_s, p) =>
      runner.run(p as JobMessage),
    ),
    consume(bus, { stream: 'PIPELINE', durable: 'pipeline-generate', filterSubject: 'pipeline.job.generate', concurrency: 4, ackWaitMs, onError }, (_s, p) => runner.run(p as JobMessage)),
    consume(bus, { stream: 'PIPELINE', durable: 'pipeline-timers', filterSubject: 'pipeline.timer.set', concurrency: 8, onError }, (_s, p) => setTimer(db, p as never)),
  ]);
  return async () => {
    await Promise.all(stops.map((s) => s()));
  };
}
