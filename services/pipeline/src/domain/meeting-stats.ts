/**
 * Numbers counted from a transcript, pure: speaking time, turns and questions per speaker.
 * A turn is a run of consecutive segments by one speaker, so a long monologue cut into
 * several segments still counts once.
 */
import { isQuestion, splitSentences, type TextLanguage } from './text-units';

export interface StatsSegment {
  speaker: string;
  speakerName?: string | null;
  startMs: number;
  endMs: number;
  text: string;
}

export interface SpeakerStats {
  speaker: string;
  speakerName: string | null;
  speakingMs: number;
  /** Share of all speaking time, 0..1. */
  share: number;
  turns: number;
  questions: number;
}

/** A type (not an interface), so that it is a transcript's `stats` record as it is. */
export type MeetingStats = {
  /** In order of first appearance. */
  speakers: SpeakerStats[];
  totalTurns: number;
  questions: number;
  durationMs: number;
};

/**
 * Counts per speaker. `durationMs` defaults to the end of the last segment (the audio starts
 * at 0); pass the audio's own length when known, since trailing silence is meeting time too.
 */
export function stats(
  segments: readonly StatsSegment[],
  options: { language?: TextLanguage; durationMs?: number } = {},
): MeetingStats {
  const language = options.language ?? guessLanguage(segments);
  const bySpeaker = new Map<string, SpeakerStats>();
  let totalTurns = 0;
  let previous: string | null = null;
  let lastEnd = 0;
  for (const seg of [...segments].sort((a, b) => a.startMs - b.startMs)) {
    let entry = bySpeaker.get(seg.speaker);
    if (!entry) {
      entry = {
        speaker: seg.speaker,
        speakerName: seg.speakerName ?? null,
        speakingMs: 0,
        share: 0,
        turns: 0,
        questions: 0,
      };
      bySpeaker.set(seg.speaker, entry);
    }
    entry.speakerName ??= seg.speakerName ?? null;
    entry.speakingMs += Math.max(0, seg.endMs - seg.startMs);
    if (seg.speaker !== previous) {
      entry.turns++;
      totalTurns++;
    }
    previous = seg.speaker;
    entry.questions += splitSentences(seg.text, language).filter((s) => isQuestion(s, language)).length;
    lastEnd = Math.max(lastEnd, seg.endMs);
  }
  const speakers = [...bySpeaker.values()];
  const speaking = speakers.reduce((sum, s) => sum + s.speakingMs, 0);
  for (const s of speakers) s.share = speaking ? Math.round((s.speakingMs / speaking) * 1000) / 1000 : 0;
  return {
    speakers,
    totalTurns,
    questions: speakers.reduce((sum, s) => sum + s.questions, 0),
    durationMs: options.durationMs ?? lastEnd,
  };
}

/** Persian script anywhere in most segments means Persian rules for question words. */
function guessLanguage(segments: readonly StatsSegment[]): TextLanguage {
  const persian = segments.filter((s) => /[\u0600-\u06FF]/.test(s.text)).length;
  return persian > segments.length / 2 ? 'fa' : 'en';
}
