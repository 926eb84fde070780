import type { Logger } from 'pino';
import { consume, type Bus } from '@mm/bus';
import type { LifecycleService } from '../services/lifecycle.service';

/**
 * Applies the pipeline's results (JetStream, at least once): each handler is idempotent, so a
 * redelivery after a crash changes nothing twice.
 */
export function consumePipelineResults(bus: Bus, lifecycle: LifecycleService, logger: Logger) {
  return consume(
    bus,
    {
      stream: 'PIPELINE',
      durable: 'recordings-results',
      filterSubject: 'pipeline.result.>',
      concurrency: 8,
      ackWaitMs: 60_000,
      onError: (err, subject) => logger.error({ err, subject }, 'pipeline result failed; will retry'),
    },
    async (subject, payload) => applyPipelineResult(lifecycle, logger, subject, payload),
  );
}

/**
 * One pipeline result, in any order and any number of times (the ordering property test feeds
 * this directly): each goes to its lifecycle transition, which checks the meeting's job and status.
 */
export async function applyPipelineResult(lifecycle: LifecycleService, logger: Logger, subject: string, payload: unknown): Promise<void> {
  const m = payload as never;
  switch (subject) {
    case 'pipeline.result.started':
      return lifecycle.started(m);
    case 'pipeline.result.transcribed':
      return lifecycle.transcribed(m);
    case 'pipeline.result.generated':
      return lifecycle.generated(m);
    case 'pipeline.result.failed':
      return lifecycle.failed(m);
    case 'pipeline.result.timer': {
      const t = payload as { kind: string; recordingId: string; ref: string };
      if (t.kind === 'naming_deadline') return lifecycle.namingDeadline(t);
      return;
    }
    default:
      logger.warn({ subject }, 'unknown pipeline subject');
  }
}
