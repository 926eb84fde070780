import type { Generated } from 'kysely';
import type { OutboxTable } from '@mm/bus';

export interface JobTable {
  id: string;
  recordingId: string;
  step: 'transcribe' | 'generate';
  status: 'running' | 'done' | 'failed';
  attempt: number;
  errorCode: string | null;
  payload: unknown;
  startedAt: Date | null;
  finishedAt: Date | null;
  engineMs: number | null;
  createdAt: Generated<Date>;
}

export interface TimerTable {
  id: string;
  kind: 'naming_deadline' | 'retry';
  recordingId: string;
  runAt: Date;
  payload: unknown;
  firedAt: Date | null;
}

export interface Database {
  job: JobTable;
  timer: TimerTable;
  outbox: OutboxTable;
}
