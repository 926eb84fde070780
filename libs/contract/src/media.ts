/**
 * Demuxers ffmpeg and ffprobe may use on an upload: the audio and video containers the service
 * accepts. Everything else (playlists such as HLS and concat lists, image sequences, raw devices)
 * is refused before it is opened, so an upload can never make ffmpeg read another file or a URL.
 */
export const ACCEPTED_DEMUXERS = ['wav', 'aiff', 'mp3', 'aac', 'ogg', 'flac', 'amr', 'mov', 'matroska', 'avi'] as const;

/** Input options put before every `-i` of an upload: local files only, accepted containers only. */
export const MEDIA_INPUT_ARGS: readonly string[] = [
  '-protocol_whitelist',
  'file',
  '-format_whitelist',
  ACCEPTED_DEMUXERS.join(','),
];

/** What the first bytes of an upload say it is. */
export type Sniffed = { family: 'audio' | 'video' | 'container'; format: string } | null;

const ascii = (b: Buffer, at: number, s: string) =>
  b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

/**
 * Recognizes audio and video containers from their magic bytes. MP4-family files (`ftyp`) and
 * Matroska/WebM may hold audio or video: ffprobe decides later.
 */
export function sniffMedia(head: Buffer): Sniffed {
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WAVE')) return { family: 'audio', format: 'wav' };
  if (ascii(head, 0, 'FORM') && (ascii(head, 8, 'AIFF') || ascii(head, 8, 'AIFC')))
    return { family: 'audio', format: 'aiff' };
  if (ascii(head, 0, 'ID3')) return { family: 'audio', format: 'mp3' };
  if (head.length >= 2 && head[0] === 0xff && (head[1] & 0xe0) === 0xe0)
    return { family: 'audio', format: (head[1] & 0x06) === 0 ? 'aac' : 'mp3' };
  if (ascii(head, 0, 'OggS')) return { family: 'audio', format: 'ogg' };
  if (ascii(head, 0, 'fLaC')) return { family: 'audio', format: 'flac' };
  if (ascii(head, 0, '#!AMR')) return { family: 'audio', format: 'amr' };
  if (ascii(head, 4, 'ftyp')) return { family: 'container', format: 'mp4' };
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return { family: 'container', format: 'matroska' };
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'AVI ')) return { family: 'video', format: 'avi' };
  return null;
}
