/**
 * A meeting sent to a remote recognizer in pieces: where to cut (at pauses, within the server's
 * limits), what to send as each piece's prompt, and how the pieces' words join back into one
 * meeting without a word lost or said twice at a cut.
 */
import { planChunks, type Chunk } from './chunk-plan';
import type { TimedWord } from './turns';

export interface PieceRules {
  /** Longest piece sent, in ms. */
  maxPieceMs: number;
  /** Largest piece sent, in bytes (OpenAI refuses files over 25 MB). */
  maxPieceBytes: number;
  /**
   * Most bytes one second of audio may take once encoded: FLAC never needs more than the raw
   * 16 kHz 16-bit samples (32,000 bytes/s) plus its frame headers; Opus far less.
   */
  worstBytesPerSecond: number;
  /** How far a cut may move from its ideal point to find a pause. */
  searchMs: number;
}

/**
 * Pieces of at most `maxPieceMs` and (at the worst encoding rate) `maxPieceBytes`, cut in the
 * quietest stretch near each ideal boundary. Cuts move by at most `searchMs` either way, so the
 * pieces are planned that much shorter than the limit.
 */
export function planPieces(energyDb: ArrayLike<number>, hopMs: number, rules: PieceRules): Chunk[] {
  const byBytes = (rules.maxPieceBytes / rules.worstBytesPerSecond) * 1000;
  const limit = Math.min(rules.maxPieceMs, byBytes);
  const searchMs = Math.min(rules.searchMs, limit / 8);
  const planned = Math.max(hopMs, Math.floor(limit - 2 * searchMs));
  return planChunks(energyDb, hopMs, {
    parallel: 1,
    minSplitMs: planned,
    maxChunkMs: planned,
    searchMs,
    quietWindowMs: 300,
  });
}

/** Splits a piece in two at its quietest point near the middle (a piece that encoded too large). */
export function halvePiece(piece: Chunk, energyDb: ArrayLike<number>, hopMs: number): Chunk[] {
  const first = Math.floor(piece.startMs / hopMs);
  const last = Math.max(first + 2, Math.ceil(piece.endMs / hopMs));
  const slice = Array.prototype.slice.call(energyDb, first, last) as number[];
  const span = piece.endMs - piece.startMs;
  const halves = planChunks(slice, hopMs, {
    parallel: 2,
    minSplitMs: 0,
    maxChunkMs: span,
    searchMs: span / 8,
    quietWindowMs: 300,
  });
  return halves.map((h) => ({
    startMs: piece.startMs + h.startMs,
    endMs: Math.min(piece.endMs, piece.startMs + h.endMs),
  }));
}

export interface PieceWords {
  /** Where the piece starts and ends in the meeting. */
  startMs: number;
  endMs: number;
  /** Words as the server timed them, from the start of the piece. */
  words: TimedWord[];
  /** The prompt the piece was sent with (its tail may be echoed back). */
  prompt?: string;
}

const bare = (w: string) => w.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');

/**
 * The meeting's words from its pieces, in order: each word moved by its piece's start and kept
 * within its piece. Two faults of Whisper-class servers are undone at each cut: a piece that
 * begins by repeating its prompt (the previous piece's tail) loses that echo, and a word the
 * server placed past the piece's end (there is no audio there) is dropped. Nothing else is
 * removed: the cuts are in pauses and the pieces do not overlap, so no word is heard twice.
 */
export function joinPieces(pieces: readonly PieceWords[]): TimedWord[] {
  const out: TimedWord[] = [];
  for (const p of pieces) {
    const span = p.endMs - p.startMs;
    let words = p.words.filter((w) => w.startMs < span + 200);
    words = words.slice(echoLength(words, p.prompt));
    for (const w of words) {
      out.push({
        ...w,
        startMs: p.startMs + Math.max(0, w.startMs),
        endMs: p.startMs + Math.min(span, Math.max(w.endMs, w.startMs)),
      });
    }
  }
  return out;
}

/**
 * How many leading words repeat the end of the prompt word for word (at least three, so a
 * sentence that merely starts like the last one is kept).
 */
function echoLength(words: readonly TimedWord[], prompt: string | undefined): number {
  if (!prompt) return 0;
  const tail = prompt.split(/\s+/).map(bare).filter(Boolean);
  for (let n = Math.min(tail.length, words.length); n >= 3; n--) {
    const head = words.slice(0, n).map((w) => bare(w.word));
    const end = tail.slice(tail.length - n);
    if (head.every((w, i) => w === end[i])) return n;
  }
  return 0;
}

/** Characters of prompt Whisper reads usefully (its prompt is cut to 224 tokens). */
export const PROMPT_CHARS = 600;

/**
 * The prompt of a piece: the meeting's vocabulary, then the last words of the previous piece
 * (Whisper continues its style and spelling from it). Keyterms take at most half the room.
 */
export function piecePrompt(
  keyterms: readonly string[],
  previous: readonly TimedWord[] | null,
  maxChars = PROMPT_CHARS,
): string | undefined {
  let terms = '';
  for (const t of keyterms) {
    const next = terms ? `${terms}, ${t}` : t;
    if (next.length > maxChars / 2) break;
    terms = next;
  }
  const room = maxChars - terms.length - 2;
  const tailWords: string[] = [];
  let used = 0;
  for (let i = (previous?.length ?? 0) - 1; i >= 0 && previous; i--) {
    used += previous[i].word.length + 1;
    if (used > room) break;
    tailWords.unshift(previous[i].word);
  }
  const tail = tailWords.join(' ');
  const prompt = [terms && `${terms}.`, tail].filter(Boolean).join(' ');
  return prompt || undefined;
}
