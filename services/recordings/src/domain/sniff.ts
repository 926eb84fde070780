import { sniffMedia, type Sniffed } from '@mm/contract';

/** The media sniffer lives in the contract: the MCP server checks a file is audio before sending it. */
export { sniffMedia, type Sniffed };

const ascii = (b: Buffer, at: number, s: string) =>
  b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

/** True when a part's declared content type names a media type we take. */
export function isMediaType(contentType: string | undefined): boolean {
  return !!contentType && /^(audio|video)\/[\w.+-]+/i.test(contentType);
}

export type AttachmentType = 'pdf' | 'pptx' | 'docx';

/** PDF by its header; PPTX and DOCX are ZIP files whose part names say which. */
export function sniffAttachment(head: Buffer, filename: string | undefined): AttachmentType | null {
  if (ascii(head, 0, '%PDF-')) return 'pdf';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0304) {
    const text = head.toString('latin1');
    if (text.includes('ppt/') || /\.pptx$/i.test(filename ?? '')) return 'pptx';
    if (text.includes('word/') || /\.docx$/i.test(filename ?? '')) return 'docx';
  }
  return null;
}

/** Size fields a writer that streams (and so cannot go back to fill them) leaves as placeholders. */
const UNKNOWN_SIZES = new Set([0, 0xffffffff]);

/** The chunks of a RIFF/WAVE file whose headers lie within `head`: id, where it starts, its stated size. */
function* wavChunks(head: Buffer): Generator<{ id: string; at: number; size: number }> {
  if (!ascii(head, 0, 'RIFF') || !ascii(head, 8, 'WAVE')) return;
  let at = 12;
  while (at + 8 <= head.length) {
    const size = head.readUInt32LE(at + 4);
    yield { id: head.toString('latin1', at, at + 4), at, size };
    at += 8 + size + (size % 2);
  }
}

/**
 * How many bytes of a WAV file's audio are missing: how far its `data` chunk's stated size runs past
 * the end of the file (an upload stopped midway, a copy not finished). 0 when the file holds it all,
 * and when the header does not say: not RIFF/WAVE (RF64 included), the data chunk beyond `head`, or
 * a size a streaming writer left as 0 or 0xFFFFFFFF. Bytes after the data (other chunks, junk) are
 * not counted.
 */
export function wavBytesMissing(head: Buffer, fileSize: number): number {
  for (const c of wavChunks(head))
    if (c.id === 'data') return UNKNOWN_SIZES.has(c.size) ? 0 : Math.max(0, c.at + 8 + c.size - fileSize);
  return 0;
}

/** WAVE format tags whose samples are stored as they are: integer PCM, IEEE float, and the extensible form. */
const PCM = 1;
const FLOAT = 3;
const EXTENSIBLE = 0xfffe;
/** Beyond these a header is odd enough to leave to ffprobe (which refuses over 512 channels, or a rate past 2^31 - 1). */
const MAX_CHANNELS = 64;
const MAX_RATE = 768_000;

/**
 * The length of a plain PCM or float WAV file, read off its header: the audio bytes the file holds
 * (the data chunk's stated size, or less when the file ends sooner) over the byte rate. Such a file
 * needs no decoder to be read, so its length is known without running ffprobe (which costs about
 * 130 ms of CPU per start on a 2-core machine, mostly loading its 200 libraries). Null, for the
 * prober to decide, whenever the header is anything but consistent: not RIFF/WAVE, no `fmt ` chunk
 * before `data` within `head`, a compressed format (ADPCM, mu-law, GSM...), fields that disagree
 * with each other (block align, byte rate), more than 64 channels or a rate above 768 kHz, or a
 * data size a streaming writer left unknown.
 */
export function wavLengthMs(head: Buffer, fileSize: number): number | null {
  let format: { channels: number; rate: number; byteRate: number; blockAlign: number; bits: number } | null = null;
  for (const c of wavChunks(head)) {
    if (c.id === 'fmt ') {
      if (c.size < 16 || c.at + 8 + 16 > head.length) return null;
      const f = c.at + 8;
      let tag = head.readUInt16LE(f);
      if (tag === EXTENSIBLE) {
        // The sub-format GUID's first two bytes are the format tag (KSDATAFORMAT_SUBTYPE_PCM / _IEEE_FLOAT).
        if (c.size < 40 || f + 26 > head.length) return null;
        tag = head.readUInt16LE(f + 24);
      }
      if (tag !== PCM && tag !== FLOAT) return null;
      format = {
        channels: head.readUInt16LE(f + 2),
        rate: head.readUInt32LE(f + 4),
        byteRate: head.readUInt32LE(f + 8),
        blockAlign: head.readUInt16LE(f + 12),
        bits: head.readUInt16LE(f + 14),
      };
      const { channels, rate, byteRate, blockAlign, bits } = format;
      const consistent =
        channels >= 1 &&
        channels <= MAX_CHANNELS &&
        rate >= 1 &&
        rate <= MAX_RATE &&
        [8, 16, 24, 32, 64].includes(bits) &&
        (tag === PCM ? bits <= 32 : bits >= 32) &&
        blockAlign === (channels * bits) / 8 &&
        byteRate === rate * blockAlign;
      if (!consistent) return null;
    } else if (c.id === 'data') {
      if (!format || UNKNOWN_SIZES.has(c.size)) return null;
      const held = Math.min(c.size, Math.max(0, fileSize - (c.at + 8)));
      return Math.round((held / format.byteRate) * 1000);
    }
  }
  return null;
}
