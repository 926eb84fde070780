import type { NamingMode, PipelineStep, RecordingStatus, SubmitNaming } from '@mm/contract';

/** The two steps the pipeline runs; a failed meeting retries the one that failed. */
export type Step = PipelineStep;

export const STEP_STATUS: Record<Step, RecordingStatus> = { transcribe: 'TRANSCRIBING', generate: 'GENERATING' };

export interface NamingInput {
  naming: SubmitNaming;
  mode: NamingMode;
  speakerCount: number;
  now: Date;
  autoWaitSeconds: number;
  forceOnDeadlineHours: number;
  /** Seconds of the short stop a single voice makes. */
  singleVoiceWaitSeconds: number;
}

export type NamingDecision = { stop: false } | { stop: true; deadline: Date | null; notify: boolean };

/**
 * Whether a meeting whose transcript is ready stops at NAMING. `naming=skip` and FORCE_OFF never
 * stop; FORCE_ON waits until named, skipped or its deadline (none when the deadline hours are 0);
 * under AUTO a single voice makes a short stop without notification, several voices a short wait.
 */
export function decideNaming(i: NamingInput): NamingDecision {
  if (i.naming === 'skip' || i.mode === 'FORCE_OFF') return { stop: false };
  const after = (s: number) => new Date(i.now.getTime() + s * 1000);
  if (i.mode === 'FORCE_ON')
    return {
      stop: true,
      deadline: i.forceOnDeadlineHours > 0 ? after(i.forceOnDeadlineHours * 3600) : null,
      notify: true,
    };
  if (i.speakerCount <= 1) return { stop: true, deadline: after(i.singleVoiceWaitSeconds), notify: false };
  return { stop: true, deadline: after(i.autoWaitSeconds), notify: true };
}

/**
 * Whether a meeting takes a result of its current job: only from the statuses the result moves
 * it on from, and from FAILED only while the service is retrying it itself. A final failure stays
 * final (a late or redelivered `started` or result changes nothing); only the person's retry or
 * "check again", which start a new job, move it.
 */
export function takesResult(
  r: { status: string; autoRetryPending: boolean },
  from: readonly RecordingStatus[],
): boolean {
  if (r.status === 'FAILED') return r.autoRetryPending && from.includes('FAILED');
  return (from as readonly string[]).includes(r.status);
}

/**
 * Speaker names the service fills itself: a voice that introduces itself ("my name is Sara",
 * "I'm Sara", "this is Sara") gets that name unless the person named it already.
 */
export function suggestNames(segments: { speaker: string; text: string }[]): Record<string, string> {
  const out: Record<string, string> = {};
  const pattern = /\b(?:my name is|i am|i'm|this is)\s+([a-z][a-z'-]{1,20})\b/i;
  const notNames = new Set([
    'going',
    'not',
    'sure',
    'here',
    'glad',
    'happy',
    'sorry',
    'the',
    'a',
    'an',
    'just',
    'also',
    'so',
    'very',
    'really',
    'about',
    'what',
    'it',
    'that',
    'on',
    'in',
    'at',
    'done',
    'ready',
    'working',
    'looking',
    'thinking',
    'fine',
    'good',
    'great',
    'okay',
  ]);
  for (const s of segments) {
    if (out[s.speaker]) continue;
    const m = pattern.exec(s.text);
    if (m && !notNames.has(m[1].toLowerCase())) out[s.speaker] = m[1][0].toUpperCase() + m[1].slice(1).toLowerCase();
  }
  return out;
}
