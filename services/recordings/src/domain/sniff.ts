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
