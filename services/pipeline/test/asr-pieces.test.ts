import { halvePiece, joinPieces, piecePrompt, planPieces, type PieceRules } from '../src/domain/asr-pieces';
import { backoffMs, retryAfterMs } from '../src/domain/backoff';

const RULES: PieceRules = {
  maxPieceMs: 600_000,
  maxPieceBytes: 24 * 2 ** 20,
  worstBytesPerSecond: 33_000,
  searchMs: 8000,
};
const w = (word: string, startMs: number, endMs = startMs + 300) => ({ word, startMs, endMs });

describe('planPieces', () => {
  it('keeps a meeting shorter than a piece whole', () => {
    expect(planPieces(new Float32Array(30_000).fill(-20), 10, RULES)).toEqual([{ startMs: 0, endMs: 300_000 }]);
  });

  it('cuts five hours into pieces within both the seconds and the bytes limit, at pauses', () => {
    // Speech everywhere except a 1 s pause every 13 s (a cut may move 8 s to find one).
    const energy = new Float32Array(5 * 3600 * 100).fill(-20);
    for (let f = 1200; f < energy.length; f += 1300) energy.fill(-80, f, f + 100);
    const pieces = planPieces(energy, 10, RULES);
    const longest = Math.max(...pieces.map((p) => p.endMs - p.startMs));
    expect(longest).toBeLessThanOrEqual(600_000);
    expect(longest * 33).toBeLessThanOrEqual(24 * 2 ** 20);
    expect(pieces[0].startMs).toBe(0);
    expect(pieces[pieces.length - 1].endMs).toBe(18_000_000);
    for (let i = 1; i < pieces.length; i++) {
      expect(pieces[i].startMs).toBe(pieces[i - 1].endMs);
      expect(energy[pieces[i].startMs / 10]).toBe(-80);
    }
  });

  it('plans shorter pieces when the byte limit is the tighter one', () => {
    const pieces = planPieces(new Float32Array(60_000).fill(-20), 10, { ...RULES, maxPieceBytes: 2 * 2 ** 20 });
    expect(Math.max(...pieces.map((p) => p.endMs - p.startMs)) * 33).toBeLessThanOrEqual(2 * 2 ** 20);
  });

  it('halves a piece at its quietest point near the middle', () => {
    const energy = new Float32Array(20_000).fill(-20);
    energy.fill(-80, 11_000, 11_050);
    const halves = halvePiece({ startMs: 60_000, endMs: 180_000 }, energy, 10);
    expect(halves[0].startMs).toBe(60_000);
    expect(halves[0].endMs).toBeGreaterThanOrEqual(110_000);
    expect(halves[0].endMs).toBeLessThanOrEqual(110_500);
    expect(halves[1]).toEqual({ startMs: halves[0].endMs, endMs: 180_000 });
  });
});

describe('joinPieces', () => {
  it('moves each word by its piece start and keeps every word once', () => {
    const words = joinPieces([
      { startMs: 0, endMs: 10_000, words: [w('we', 100), w('decided', 500)] },
      { startMs: 10_000, endMs: 20_000, words: [w('to', 50), w('ship', 400)] },
    ]);
    expect(words.map((x) => [x.word, x.startMs])).toEqual([
      ['we', 100],
      ['decided', 500],
      ['to', 10_050],
      ['ship', 10_400],
    ]);
  });

  it('drops an echo of the prompt at the start of a piece and words past its end', () => {
    const words = joinPieces([
      {
        startMs: 0,
        endMs: 5000,
        words: [w('please', 100), w('send', 400), w('the', 700), w('notes', 900), w('ghost', 5400)],
      },
      {
        startMs: 5000,
        endMs: 9000,
        words: [w('send', 0), w('the', 100), w('notes', 200), w('tomorrow', 600)],
        prompt: 'Sara. please send the notes',
      },
    ]);
    expect(words.map((x) => x.word)).toEqual(['please', 'send', 'the', 'notes', 'tomorrow']);
  });

  it('keeps a piece that only starts like the prompt ends', () => {
    const words = joinPieces([
      { startMs: 0, endMs: 5000, words: [w('the', 0), w('notes', 300), w('again', 600)], prompt: 'send the notes' },
    ]);
    expect(words).toHaveLength(3);
  });
});

describe('piecePrompt', () => {
  it('gives the keyterms, then the end of the previous piece, within the room', () => {
    const previous = Array.from({ length: 300 }, (_, i) => w(`word${i}`, i * 100));
    const prompt = piecePrompt(['Sara', 'Kubernetes'], previous)!;
    expect(prompt.startsWith('Sara, Kubernetes. ')).toBe(true);
    expect(prompt.endsWith('word298 word299')).toBe(true);
    expect(prompt.length).toBeLessThanOrEqual(600);
    expect(piecePrompt([], null)).toBeUndefined();
  });
});

describe('backoff', () => {
  it('doubles up to the cap and keeps at least half of each wait', () => {
    const rules = { baseMs: 1000, maxMs: 30_000 };
    expect(backoffMs(1, rules, () => 0)).toBe(500);
    expect(backoffMs(3, rules, () => 1)).toBe(4000);
    expect(backoffMs(10, rules, () => 0.5)).toBe(22_500);
  });

  it('reads Retry-After as seconds or a date, and retry-after-ms first', () => {
    const h = (o: Record<string, string>) => new Headers(o);
    expect(retryAfterMs(h({ 'retry-after': '7' }))).toBe(7000);
    expect(retryAfterMs(h({ 'retry-after': new Date(61_000).toUTCString() }), 1000)).toBe(60_000);
    expect(retryAfterMs(h({ 'retry-after': '7', 'retry-after-ms': '250' }))).toBe(250);
    expect(retryAfterMs(h({}))).toBeNull();
  });
});
