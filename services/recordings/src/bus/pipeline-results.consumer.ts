import type { Logger } from 'pino';
import { consume, on, type Bus } from '@mm/bus';
import { BUS } from '@mm/contract';
import type { LifecycleService } from '../services/lifecycle.service';

/**
 * Applies the pipeline's results (JetStream, at least once): each handler is idempotent, so a
 * redelivery after a crash changes nothing twice.
 */
export function consumePipelineResults(bus: Bus, lifecycle: LifecycleService, logger: Logger) {
  return consume(
    bus,
    [
      on(BUS.jobStarted, (m) => lifecycle.started(m)),
      on(BUS.jobTranscribed, (m) => lifecycle.transcribed(m)),
      on(BUS.jobGenerated, (m) => lifecycle.generated(m)),
      on(BUS.jobFailed, (m) => lifecycle.failed(m)),
      on(BUS.timerFired, (m) => lifecycle.namingDeadline(m)),
    ],
    {
      durable: 'recordings-results',
      concurrency: 8,
      ackWaitMs: 60_000,
      onError: (err, subject) => logger.error({ err, subject }, 'pipeline result failed; will retry'),
    },
  );
}
