import type { TranscriptDoc } from '@mm/contract';

interface VoiceStats {
  speaker: string;
  speakerName?: string | null;
  speakingMs: number;
  share: number;
  turns: number;
  questions: number;
}

/**
 * "These two voices are one person" (the naming sheet): every turn of `from` becomes `into`'s,
 * `from` leaves the speakers (its name goes to `into` when `into` has none), and the stats count
 * the two as one: speaking time and questions added, turns counted again (two turns in a row that
 * are now one person's are one turn), shares recomputed. Pure.
 */
export function mergeVoice<T extends Pick<TranscriptDoc, 'speakers' | 'segments' | 'stats'>>(
  t: T,
  from: string,
  into: string,
): T {
  const gone = t.speakers.find((s) => s.label === from);
  const speakers = t.speakers
    .filter((s) => s.label !== from)
    .map((s) => (s.label === into ? { ...s, name: s.name ?? gone?.name ?? null } : s));
  const segments = t.segments.map((s) => (s.speaker === from ? { ...s, speaker: into } : s));
  return { ...t, speakers, segments, stats: mergeStats(t.stats, segments, from, into) };
}

function mergeStats(
  stats: Record<string, unknown>,
  segments: { speaker: string; startMs: number }[],
  from: string,
  into: string,
): Record<string, unknown> {
  const before = Array.isArray(stats.speakers) ? (stats.speakers as VoiceStats[]) : [];
  const a = before.find((s) => s.speaker === from);
  const kept = before
    .filter((s) => s.speaker !== from)
    .map((s) =>
      s.speaker === into && a
        ? {
            ...s,
            speakerName: s.speakerName ?? a.speakerName ?? null,
            speakingMs: s.speakingMs + a.speakingMs,
            questions: s.questions + a.questions,
          }
        : { ...s },
    );
  // Turns: runs of one speaker's consecutive segments, counted again over the merged labels.
  const turns = new Map<string, number>();
  let previous: string | null = null;
  let total = 0;
  for (const seg of [...segments].sort((x, y) => x.startMs - y.startMs)) {
    if (seg.speaker !== previous) {
      turns.set(seg.speaker, (turns.get(seg.speaker) ?? 0) + 1);
      total++;
    }
    previous = seg.speaker;
  }
  const speaking = kept.reduce((sum, s) => sum + s.speakingMs, 0);
  for (const s of kept) {
    s.turns = turns.get(s.speaker) ?? 0;
    s.share = speaking ? Math.round((s.speakingMs / speaking) * 1000) / 1000 : 0;
  }
  return { ...stats, speakers: kept, totalTurns: total };
}
