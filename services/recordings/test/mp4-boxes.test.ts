import { boxEnd } from '../src/domain/mp4-boxes';

const box = (size: number, type: string, large?: bigint) => {
  const b = Buffer.alloc(large === undefined ? 8 : 16);
  b.writeUInt32BE(size, 0);
  b.write(type, 4, 'latin1');
  if (large !== undefined) b.writeBigUInt64BE(large, 8);
  return b;
};

describe('boxEnd (top-level MP4 boxes)', () => {
  it('ends a box at its stated size from its offset', () => {
    expect(boxEnd(box(32, 'ftyp'), 0, 1000)).toBe(32);
    expect(boxEnd(box(500, 'moov'), 32, 1000)).toBe(532);
  });

  it('states past the end of a file cut short, a cut-off header included', () => {
    expect(boxEnd(box(900, 'mdat'), 532, 1000)).toBe(1432);
    expect(boxEnd(Buffer.from([0, 0, 1]), 996, 999)).toBe(1004);
    expect(boxEnd(box(1, 'mdat').subarray(0, 12), 100, 112)).toBe(116);
  });

  it('reads a 64-bit size, and a size of 0 as the rest of the file', () => {
    expect(boxEnd(box(1, 'mdat', 5_000_000_000n), 40, 6_000_000_000)).toBe(5_000_000_040);
    expect(boxEnd(box(0, 'mdat'), 40, 777)).toBe(777);
  });

  it('gives no answer for bytes that are no box header', () => {
    expect(boxEnd(box(7, 'junk'), 0, 100)).toBeNull();
    expect(boxEnd(box(1, 'mdat', 3n), 0, 100)).toBeNull();
  });
});
