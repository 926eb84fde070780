/**
 * Demuxers ffmpeg and ffprobe may use on an upload: the audio and video containers the service
 * accepts. Everything else (playlists such as HLS and concat lists, image sequences, raw devices)
 * is refused before it is opened, so an upload can never make ffmpeg read another file or a URL.
 */
export const ACCEPTED_DEMUXERS = ['wav', 'aiff', 'mp3', 'aac', 'ogg', 'flac', 'amr', 'mov', 'matroska', 'avi'] as const;

/** Input options put before every `-i` of an upload: local files only, accepted containers only. */
export const MEDIA_INPUT_ARGS: readonly string[] = ['-protocol_whitelist', 'file', '-format_whitelist', ACCEPTED_DEMUXERS.join(',')];
