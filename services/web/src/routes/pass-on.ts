import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Response } from 'express';

/** The headers of an audio answer the browser needs for range requests (seeking) and playing. */
const AUDIO_HEADERS = ['content-type', 'content-length', 'content-range', 'accept-ranges'];

/**
 * A signal that fires when the browser goes away before its answer was sent: the service's
 * answer is then abandoned, not read to its end.
 */
export function leftEarly(res: Response): AbortSignal {
  const gone = new AbortController();
  res.on('close', () => {
    if (!res.writableFinished) gone.abort(new Error('the browser left'));
  });
  return gone.signal;
}

/** A web stream's pieces as they arrive; stopping early (the browser left) cancels the rest. */
async function* piecesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  let done = false;
  try {
    while (true) {
      const next = await reader.read();
      if (next.done) {
        done = true;
        return;
      }
      yield next.value;
    }
  } finally {
    if (!done) await reader.cancel().catch(() => {});
  }
}

/**
 * Passes a service's audio answer on as it arrives (status, the range headers, the body), never
 * holding it whole: each piece is written to the browser as it comes, at the browser's pace.
 * A browser that leaves, or a service that stops mid-answer, ends the answer without an error page.
 */
export async function passAudioOn(
  up: globalThis.Response,
  res: Response,
  extra: Record<string, string> = {},
): Promise<void> {
  res.status(up.status);
  for (const h of AUDIO_HEADERS) {
    const v = up.headers.get(h);
    if (v) res.setHeader(h, v);
  }
  for (const [k, v] of Object.entries(extra)) res.setHeader(k, v);
  if (!up.body) return void res.end();
  await pipeline(Readable.from(piecesOf(up.body)), res).catch(() => {
    // Headers are out: a cut answer can only be ended (the browser asks the rest by range again).
    res.destroy();
  });
}
