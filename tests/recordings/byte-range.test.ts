import { byteRange, clipsOf, OPEN_RANGE_BYTES } from '../../services/recordings/src/routes/app-meeting.routes';

describe('the app audio route: byte ranges and naming clips', () => {
  it('reads the Range header forms of RFC 9110 over a file, 416 outside it', () => {
    expect(byteRange(undefined, 1000)).toBeNull();
    expect(byteRange('bytes=0-99', 1000)).toEqual({ start: 0, end: 99 });
    expect(byteRange('bytes=900-', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=990-2000', 1000)).toEqual({ start: 990, end: 999 });
    expect(byteRange('bytes=-100', 1000)).toEqual({ start: 900, end: 999 });
    expect(byteRange('bytes=-5000', 1000)).toEqual({ start: 0, end: 999 });
    expect(byteRange('bytes=1000-', 1000)).toBe('unsatisfiable');
    // An open end over a long file answers one chunk; the player asks for the rest.
    expect(byteRange('bytes=0-', 100 * OPEN_RANGE_BYTES)).toEqual({ start: 0, end: OPEN_RANGE_BYTES - 1 });
    expect(byteRange('bytes=50-10', 1000)).toBe('unsatisfiable');
    expect(byteRange('bytes=-0', 1000)).toBe('unsatisfiable');
    // Forms we do not serve (several ranges, other units) answer the whole file.
    expect(byteRange('bytes=0-1,5-6', 1000)).toBeNull();
    expect(byteRange('items=0-1', 1000)).toBeNull();
  });

  it('gives each voice its three longest turns in spoken order, each at most 8 s', () => {
    const seg = (index: number, speaker: string, startMs: number, endMs: number) => ({
      index,
      speaker,
      startMs,
      endMs,
      text: 'x',
    });
    const segments = [
      seg(0, 'A', 0, 1000),
      seg(1, 'B', 1000, 20000),
      seg(2, 'A', 20000, 23000),
      seg(3, 'A', 23000, 23500),
      seg(4, 'A', 24000, 26000),
      seg(5, 'A', 30000, 30200),
    ];
    expect(clipsOf(segments, 'A')).toEqual([
      { startMs: 0, endMs: 1000 },
      { startMs: 20000, endMs: 23000 },
      { startMs: 24000, endMs: 26000 },
    ]);
    expect(clipsOf(segments, 'B')).toEqual([{ startMs: 1000, endMs: 9000 }]);
    expect(clipsOf(segments, 'C')).toEqual([]);
  });
});
