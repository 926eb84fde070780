import { planChunks } from '../src/domain/chunk-plan';
import { parseWordTimes } from '../src/engines/asr';

describe('planChunks', () => {
  it('keeps short audio in one chunk', () => {
    expect(planChunks(new Float32Array(1000).fill(-20), 10)).toEqual([{ startMs: 0, endMs: 10000 }]);
  });

  it('cuts long audio into one chunk per process, inside the nearest silence', () => {
    // 60 s of speech with a 1 s pause at 27-28 s, a little before the middle.
    const energy = new Float32Array(6000).fill(-20);
    energy.fill(-80, 2700, 2800);
    const chunks = planChunks(energy, 10, {
      parallel: 2,
      minSplitMs: 20000,
      maxChunkMs: 180000,
      searchMs: 8000,
      quietWindowMs: 300,
    });
    expect(chunks).toHaveLength(2);
    expect(chunks[0].startMs).toBe(0);
    expect(chunks[0].endMs).toBeGreaterThanOrEqual(27000);
    expect(chunks[0].endMs).toBeLessThanOrEqual(28000);
    expect(chunks[1]).toEqual({ startMs: chunks[0].endMs, endMs: 60000 });
  });

  it('never plans a chunk longer than the maximum', () => {
    const chunks = planChunks(new Float32Array(60000).fill(-20), 10, {
      parallel: 2,
      minSplitMs: 20000,
      maxChunkMs: 180000,
      searchMs: 8000,
      quietWindowMs: 300,
    });
    expect(chunks).toHaveLength(4);
    expect(chunks.every((c) => c.endMs - c.startMs <= 180000)).toBe(true);
  });
});

describe('parseWordTimes', () => {
  it('reads word lines, drops fillers and shifts by the chunk offset', () => {
    const out = [
      'good morning everyone',
      '<s> 0.110 0.170 0.999500',
      'good(2) 0.180 0.350 0.053588',
      '<sil> 1.300 1.320 0.370384',
      'morning 0.360 0.770 1.000100',
      '</s> 4.120 4.240 1.000000',
    ].join('\n');
    expect(parseWordTimes(out, 60000)).toEqual([
      { word: 'good', startMs: 60180, endMs: 60360, confidence: 0.053588 },
      { word: 'morning', startMs: 60360, endMs: 60780, confidence: 1 },
    ]);
  });
});
