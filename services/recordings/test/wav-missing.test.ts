import { wavBytesMissing } from '../src/domain/sniff';

/** A RIFF/WAVE header: a fmt chunk, optional chunks before data, then `data` stating `dataSize`. */
function wavHeader(dataSize: number, before: Array<{ id: string; body: Buffer }> = []): Buffer {
  const chunk = (id: string, body: Buffer) => {
    const h = Buffer.alloc(8);
    h.write(id, 0, 'latin1');
    h.writeUInt32LE(body.length, 4);
    return Buffer.concat([h, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  // The format's fields are not read: only the chunks' ids and sizes are.
  const fmt = Buffer.alloc(16);
  const data = Buffer.alloc(8);
  data.write('data', 0, 'latin1');
  data.writeUInt32LE(dataSize, 4);
  const body = Buffer.concat([
    Buffer.from('WAVE'),
    chunk('fmt ', fmt),
    ...before.map((c) => chunk(c.id, c.body)),
    data,
  ]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(Math.min(0xffffffff, body.length - 8 + dataSize + 4), 4);
  return Buffer.concat([riff, body]);
}

describe('wavBytesMissing: how much of a WAV file its data chunk says is not there', () => {
  it('counts the bytes the data chunk states past the end of the file', () => {
    const head = wavHeader(480_000);
    expect(head.length).toBe(44);
    expect(wavBytesMissing(head, 44 + 480_000)).toBe(0);
    expect(wavBytesMissing(head, 2000)).toBe(44 + 480_000 - 2000);
  });

  it('finds the data chunk after other chunks (LIST, an odd-sized one padded)', () => {
    const head = wavHeader(1000, [
      { id: 'LIST', body: Buffer.from('INFOISFT\u0005\u0000\u0000\u0000sox!\u0000', 'latin1') },
      { id: 'odd ', body: Buffer.alloc(3) },
    ]);
    const dataEnd = head.length + 1000;
    expect(wavBytesMissing(head, dataEnd)).toBe(0);
    expect(wavBytesMissing(head, dataEnd - 600)).toBe(600);
  });

  it('does not count bytes after the data, and says 0 when the header does not tell', () => {
    expect(wavBytesMissing(wavHeader(1000), 44 + 1000 + 5000)).toBe(0);
    // A streaming writer's placeholders.
    expect(wavBytesMissing(wavHeader(0), 44 + 300)).toBe(0);
    expect(wavBytesMissing(wavHeader(0xffffffff), 44 + 300)).toBe(0);
    // Not RIFF/WAVE: RF64, another container, the data chunk beyond the bytes read.
    const rf64 = Buffer.from(wavHeader(1000));
    rf64.write('RF64', 0, 'latin1');
    expect(wavBytesMissing(rf64, 100)).toBe(0);
    expect(wavBytesMissing(Buffer.from('OggS\u0000\u0002'), 10)).toBe(0);
    expect(wavBytesMissing(wavHeader(1000).subarray(0, 40), 100)).toBe(0);
  });
});
