import { transcriptsThatFit } from '../src/domain/ask-budget';

describe('transcriptsThatFit', () => {
  it('takes transcripts newest first while they fit; one too long is left out and a shorter one after still fits', () => {
    expect(transcriptsThatFit([10, 50, 20, 15], 40)).toEqual([true, false, true, false]);
    expect(transcriptsThatFit([10, 50, 20, 10], 40)).toEqual([true, false, true, true]);
  });

  it('a transcript exactly the size of what is left fits; a zero budget carries only empty ones', () => {
    expect(transcriptsThatFit([40], 40)).toEqual([true]);
    expect(transcriptsThatFit([1, 0], 0)).toEqual([false, true]);
    expect(transcriptsThatFit([], 100)).toEqual([]);
  });
});
