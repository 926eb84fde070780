import { createWriteStream, promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { ToolInputError } from './tool-input-error';

/** Audio fetched to a private temporary file; `remove` deletes it (call it once the submit is done). */
export interface FetchedAudio {
  path: string;
  filename: string;
  size: number;
  remove: () => Promise<void>;
}

/**
 * Fetches audio for a submit over HTTP: only http(s), only from a host the operator listed, no
 * redirects (a redirect could leave the list). The body is streamed to a temporary file, never
 * held in memory, and cut off past `maxBytes` (a Content-Length above it is refused before reading).
 */
export async function fetchAudio(
  url: string,
  allowedHosts: readonly string[],
  maxBytes: number,
): Promise<FetchedAudio> {
  if (allowedHosts.length === 0) throw new ToolInputError('this server does not fetch audio by URL');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ToolInputError('audioUrl is not a URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ToolInputError('audioUrl must be http or https');
  if (!allowedHosts.includes(parsed.hostname.toLowerCase()))
    throw new ToolInputError(`audio is fetched only from the allowed hosts, not ${parsed.hostname}`);
  const res = await fetch(parsed, { redirect: 'error' }).catch((err: Error) => {
    throw new ToolInputError(`audioUrl could not be fetched: ${err.message}`);
  });
  const tooLarge = () => new ToolInputError(`audio at audioUrl is larger than ${maxBytes} bytes`);
  if (!res.ok || !res.body) throw new ToolInputError(`audioUrl answered ${res.status}`);
  if (Number(res.headers.get('content-length') ?? 0) > maxBytes) {
    await res.body.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const dir = await fs.mkdtemp(path.join(tmpdir(), 'mcp-audio-'));
  const remove = () => fs.rm(dir, { recursive: true, force: true });
  const file = path.join(dir, 'audio');
  let size = 0;
  const cap = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      done(size > maxBytes ? tooLarge() : null, chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(res.body as NodeReadableStream), cap, createWriteStream(file, { mode: 0o600 }));
  } catch (err) {
    await remove();
    if (err instanceof ToolInputError) throw err;
    throw new ToolInputError(`audioUrl could not be read to the end: ${(err as Error).message}`);
  }
  return { path: file, filename: decodeURIComponent(parsed.pathname.split('/').pop() ?? '') || 'audio', size, remove };
}
