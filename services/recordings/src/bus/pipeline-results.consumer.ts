import type { Logger } from 'pino';
import { check, consume, entryOfSubject, on, type Bus, type Delivery, type Route } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { LifecycleService } from '../services/lifecycle.service';

/** The pipeline's results, each with the lifecycle transition that applies it (which checks the meeting's job and status). */
const resultRoutes = (lifecycle: LifecycleService): Route<any>[] => [
  on(BUS.jobStarted, (m) => lifecycle.started(m)),
  on(BUS.jobTranscribed, (m) => lifecycle.transcribed(m)),
  on(BUS.jobGenerated, (m) => lifecycle.generated(m)),
  on(BUS.jobFailed, (m) => lifecycle.failed(m)),
  on(BUS.timerFired, (m) => lifecycle.namingDeadline(m)),
];

/**
 * Applies the pipeline's results (JetStream, at least once): each handler is idempotent, so a
 * redelivery after a crash changes nothing twice.
 */
export function consumePipelineResults(bus: Bus, lifecycle: LifecycleService, logger: Logger) {
  return consume(bus, resultRoutes(lifecycle), {
    durable: 'recordings-results',
    concurrency: 8,
    ackWaitMs: 60_000,
    onError: (err, subject) => logger.error({ err, subject }, 'pipeline result failed; will retry'),
  });
}

/**
 * One pipeline result, in any order and any number of times, checked against the table as the bus
 * would: the ordering property test feeds results straight to the transitions through this.
 */
export async function applyPipelineResult(lifecycle: LifecycleService, logger: Logger, subject: string, payload: unknown): Promise<void> {
  const route = resultRoutes(lifecycle).find((r) => r.entry === entryOfSubject(subject));
  if (!route) return logger.warn({ subject }, 'not a pipeline result');
  check(route.entry, 'payload', payload);
  // No JetStream message here: the transitions read only the payload.
  return route.handle(payload, { subject, version: 1, msg: undefined } as unknown as Delivery);
}
