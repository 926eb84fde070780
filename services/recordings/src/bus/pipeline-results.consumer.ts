import type { Logger } from 'pino';
import { check, consume, entryOfSubject, on, type Bus } from '@mm/bus';
import { BUS, type StreamEntry } from '@mm/contract';
import type { LifecycleService } from '../services/lifecycle.service';

/** A pipeline result with the lifecycle transition that applies it (which checks the meeting's job and status). */
const transition = <P>(entry: StreamEntry<P>, apply: (payload: P) => Promise<void>) => ({ entry, apply });

const transitions = (lifecycle: LifecycleService): ReturnType<typeof transition<any>>[] => [
  transition(BUS.jobStarted, (m) => lifecycle.started(m)),
  transition(BUS.jobTranscribed, (m) => lifecycle.transcribed(m)),
  transition(BUS.jobGenerated, (m) => lifecycle.generated(m)),
  transition(BUS.jobFailed, (m) => lifecycle.failed(m)),
  transition(BUS.timerFired, (m) => lifecycle.namingDeadline(m)),
];

/**
 * Applies the pipeline's results (JetStream, at least once): each handler is idempotent, so a
 * redelivery after a crash changes nothing twice.
 */
export function consumePipelineResults(bus: Bus, lifecycle: LifecycleService, logger: Logger) {
  return consume(
    bus,
    transitions(lifecycle).map((t) => on(t.entry, t.apply)),
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
export async function applyPipelineResult(lifecycle: LifecycleService, logger: Logger, subject: string, payload: unknown): Promise<void> {
  const t = transitions(lifecycle).find((x) => x.entry === entryOfSubject(subject));
  if (!t) return logger.warn({ subject }, 'not a pipeline result');
  check(t.entry, 'payload', payload);
  return t.apply(payload);
}
