/** What the first bytes of an upload say it is. */
export type Sniffed = { family: 'audio' | 'video' | 'container'; format: string } | null;

const ascii = (b: Buffer, at: number, s: string) => b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

/**
 * Recognizes audio and video containers from their magic bytes. MP4-family files (`ftyp`) and
 * Matroska/WebM may hold audio or video: ffprobe decides later.
 */
export function sniffMedia(head: Buffer): Sniffed {
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return { family: 'audio', format: 'wav' };
  if (ascii(head, 0, 'FORM') && (ascii(head, 8, 'AIFF') || ascii(head, 8, 'AIFC'))) return { family: 'audio', format: 'aiff' };
  if (ascii(head, 0, 'ID3')) return { family: 'audio', format: 'mp3' };
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0) return { family: 'audio', format: (head[1] & 0x06) === 0 ? 'aac' : 'mp3' };
  if (ascii(head, 0, 'OggS')) return { family: 'audio', format: 'ogg' };
  if (ascii(head, 0, 'fLaC')) return { family: 'audio', format: 'flac' };
  if (ascii(head, 0, '#!AMR')) return { family: 'audio', format: 'amr' };
  if (ascii(head, 4, 'ftyp')) return { family: 'container', format: 'mp4' };
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return { family: 'container', format: 'matroska' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'AVI ')) return { family: 'video', format: 'avi' };
  return null;
}

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
