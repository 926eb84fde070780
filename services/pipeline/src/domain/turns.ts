/**
 * Words to turns: the pure half of segmentation. The diarizer decides who spoke each word;
 * these rules decide where one transcript segment ends and the next begins.
 */

export interface TimedWord {
  word: string;
  startMs: number;
  endMs: number;
  /** Decoder posterior in [0, 1] when the engine gives one. */
  confidence?: number;
}

export interface SpeakerWord extends TimedWord {
  speaker: string;
}

/** One transcript segment: a stretch of speech by one speaker. */
export interface Turn {
  index: number;
  speaker: string;
  startMs: number;
  endMs: number;
  text: string;
}

/** A half-open range [from, to) of word indexes. */
export interface WordRange {
  from: number;
  to: number;
}

export interface TurnRules {
  /** A same-speaker pause at least this long starts a new turn (a new paragraph, in effect). */
  maxPauseMs: number;
  /** A turn longer than this is cut at its next pause, so no segment becomes a wall of text. */
  maxTurnMs: number;
}

export const DEFAULT_TURN_RULES: TurnRules = { maxPauseMs: 2000, maxTurnMs: 45000 };

/** Splits a word sequence into runs wherever the silence between two words is at least `minPauseMs`. */
export function pauseRuns(words: readonly TimedWord[], minPauseMs: number): WordRange[] {
  const runs: WordRange[] = [];
  let from = 0;
  for (let i = 1; i <= words.length; i++) {
    if (i === words.length || words[i].startMs - words[i - 1].endMs >= minPauseMs) {
      if (i > from) runs.push({ from, to: i });
      from = i;
    }
  }
  return runs;
}

/**
 * Groups speaker-labelled words into turns: a new turn at every change of speaker, after a
 * long pause, or (at a pause of at least a quarter second) once a turn has run `maxTurnMs`.
 */
export function buildTurns(words: readonly SpeakerWord[], rules: TurnRules = DEFAULT_TURN_RULES): Turn[] {
  const turns: Turn[] = [];
  let current: SpeakerWord[] = [];
  const flush = (): void => {
    if (current.length === 0) return;
    turns.push({
      index: turns.length,
      speaker: current[0].speaker,
      startMs: current[0].startMs,
      endMs: current[current.length - 1].endMs,
      text: current.map((w) => w.word).join(' '),
    });
    current = [];
  };
  for (const w of words) {
    const prev = current[current.length - 1];
    if (prev) {
      const pause = w.startMs - prev.endMs;
      const tooLong = w.endMs - current[0].startMs > rules.maxTurnMs && pause >= 250;
      if (w.speaker !== prev.speaker || pause >= rules.maxPauseMs || tooLong) flush();
    }
    current.push(w);
  }
  flush();
  return turns;
}

/**
 * Renames cluster ids to `speaker_0`, `speaker_1`, ... in order of first appearance, so the
 * first voice heard is always speaker_0 whatever number the clustering gave it.
 */
export function labelByFirstAppearance<T>(ids: readonly T[]): { labels: string[]; speakers: string[] } {
  const names = new Map<T, string>();
  const labels = ids.map((id) => {
    let name = names.get(id);
    if (name === undefined) {
      name = `speaker_${names.size}`;
      names.set(id, name);
    }
    return name;
  });
  return { labels, speakers: [...names.values()] };
}

/** Drops decoder fillers and alternate-pronunciation marks (`to(2)` -> `to`). */
export function cleanDecoderWord(token: string): string | null {
  if (token.startsWith('<') || token.startsWith('[') || token.startsWith('+')) return null;
  const word = token.replace(/\(\d+\)$/, '');
  return word === '' ? null : word;
}

/**
 * Each turn starts where its voice does: the recognizer sometimes puts a word on the noise before
 * someone speaks (or stretches the first word back into the pause), and a turn's start is when
 * the speaker began. `onset(startMs, endMs)` gives the first moment of voice in a span, or null.
 */
export function startTurnsAtVoice(
  turns: readonly Turn[],
  onset: (startMs: number, endMs: number) => number | null,
): Turn[] {
  return turns.map((t) => {
    const at = onset(t.startMs, t.endMs);
    return at === null || at <= t.startMs || at >= t.endMs ? t : { ...t, startMs: at };
  });
}
