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
 * Speaker labels per word, with every run of one label shorter than `minRunMs` (first word's
 * start to last word's end) that sits between two runs of one other label given that label:
 * a speaker who "speaks" for half a second in the middle of someone else is a misreading.
 */
export function smoothShortRuns<T>(words: readonly TimedWord[], labels: readonly T[], minRunMs: number): T[] {
  const out = labels.slice();
  const runs: WordRange[] = [];
  for (let k = 0; k < out.length; k++) {
    if (k === 0 || out[k] !== out[k - 1]) runs.push({ from: k, to: k + 1 });
    else runs[runs.length - 1].to = k + 1;
  }
  for (let r = 1; r < runs.length - 1; r++) {
    const run = runs[r];
    const before = out[runs[r - 1].to - 1];
    const after = out[runs[r + 1].from];
    if (before !== after || words[run.to - 1].endMs - words[run.from].startMs >= minRunMs) continue;
    out.fill(before, run.from, run.to);
  }
  return out;
}
