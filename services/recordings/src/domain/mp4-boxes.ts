/**
 * The top-level boxes of an MP4-family file (ISO BMFF): each starts with its size (4 bytes, big
 * endian; 1: a 64-bit size follows the type; 0: the box runs to the end of the file) and its type.
 * A file whose boxes state more bytes than it holds was cut short: for a "fast start" file (the
 * index, `moov`, before the media, as phones and browsers write it) ffmpeg reads the header and
 * then fails on a corrupt last packet, with no word of a missing end.
 */

/** Bytes to read at a box's start: its size, its type, and a 64-bit size when it has one. */
export const BOX_HEADER_BYTES = 16;

/**
 * Where the box starting at `offset` ends, from the bytes there (`header`, at most
 * BOX_HEADER_BYTES; fewer at the end of the file). Past `fileSize` when the file is cut short
 * (a header itself cut off included); null when the bytes are no box header (not ours to judge).
 */
export function boxEnd(header: Buffer, offset: number, fileSize: number): number | null {
  if (header.length < 8) return offset + 8;
  const size = header.readUInt32BE(0);
  if (size === 0) return fileSize;
  if (size === 1) {
    if (header.length < 16) return offset + 16;
    const large = Number(header.readBigUInt64BE(8));
    return large < 16 ? null : offset + large;
  }
  return size < 8 ? null : offset + size;
}
