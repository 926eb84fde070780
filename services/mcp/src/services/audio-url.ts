import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { ToolInputError } from './tool-input-error';

/**
 * Fetches audio for a submit over HTTP: only http(s), only from a host the operator listed, no
 * redirects (a redirect could leave the list), at most `maxBytes`.
 */
export async function fetchAudio(
  url: string,
  allowedHosts: readonly string[],
  maxBytes: number,
): Promise<{ audio: Buffer; filename: string }> {
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
  if (!res.ok || !res.body) throw new ToolInputError(`audioUrl answered ${res.status}`);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of Readable.fromWeb(res.body as NodeReadableStream)) {
    size += chunk.length;
    if (size > maxBytes) throw new ToolInputError(`audio at audioUrl is larger than ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return { audio: Buffer.concat(chunks), filename: parsed.pathname.split('/').pop() || 'audio' };
}
