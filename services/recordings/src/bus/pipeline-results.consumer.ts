import type { Logger } from 'pino';
import { check, consume, entryOfSubject, on, type Bus } from '@mm/bus';
import { BUS, type StreamEntry } from '@mm/contract';
import type { UseCases } from '../usecases';

/** A pipeline result with the lifecycle transition that applies it (which checks the meeting's job and status). */
const transition = <P>(entry: StreamEntry<P>, apply: (payload: P) => Promise<void>) => ({ entry, apply });

const transitions = (u: Pick<UseCases, 'results' | 'digest' | 'naming'>): ReturnType<typeof transition<any>>[] => [
  transition(BUS.jobStarted, (m) => u.results.started(m)),
  transition(BUS.jobTranscribed, (m) => u.results.transcribed(m)),
  transition(BUS.jobGenerated, (m) => u.digest.finish(m)),
  transition(BUS.jobFailed, (m) => u.results.failed(m)),
  transition(BUS.timerFired, (m) => u.naming.deadline(m)),
];

/**
 * Applies the pipeline's results (JetStream, at least once): each handler is idempotent, so a
 * redelivery after a crash changes nothing twice.
 */
export function consumePipelineResults(
  bus: Bus,
  useCases: Pick<UseCases, 'results' | 'digest' | 'naming'>,
  logger: Logger,
) {
  return consume(
    bus,
    transitions(useCases).map((t) => on(t.entry, t.apply)),
    {
      durable: 'recordings-results',
      concurrency: 8,
      ackWaitMs: 60_000,
      onError: (err, subject) => logger.error({ err, subject }, 'pipeline result failed; will retry'),
    },
  );
}

/**
 * One pipeline result, in any order and any number of times, checked against the table as the bus
 * would: the ordering property test feeds results straight to the transitions through this.
 */
export async function applyPipelineResult(
  useCases: Pick<UseCases, 'results' | 'digest' | 'naming'>,
  logger: Logger,
  subject: string,
  payload: unknown,
): Promise<void> {
  const t = transitions(useCases).find((x) => x.entry === entryOfSubject(subject));
  if (!t) return logger.warn({ subject }, 'not a pipeline result');
  check(t.entry, 'payload', payload);
  return t.apply(payload);
}
