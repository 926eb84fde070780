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

/**
 * How many bytes of a WAV file's audio are missing: how far its `data` chunk's stated size runs past
 * the end of the file (an upload stopped midway, a copy not finished). 0 when the file holds it all,
 * and when the header does not say: not RIFF/WAVE (RF64 included), the data chunk beyond `head`, or
 * a size a streaming writer left as 0 or 0xFFFFFFFF. Bytes after the data (other chunks, junk) are
 * not counted.
 */
export function wavBytesMissing(head: Buffer, fileSize: number): number {
  if (!ascii(head, 0, 'RIFF') || !ascii(head, 8, 'WAVE')) return 0;
  let at = 12;
  while (at + 8 <= head.length) {
    const size = head.readUInt32LE(at + 4);
    if (ascii(head, at, 'data')) return UNKNOWN_SIZES.has(size) ? 0 : Math.max(0, at + 8 + size - fileSize);
    at += 8 + size + (size % 2);
  }
  return 0;
}
