import { createReadStream, promises as fs } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { newIdempotencyKey, type MeetingMemoryClient, type SubmitResult } from './client';

/** Audio to send: a file path, the bytes, or a stream (read into memory once so retries can resend it). */
export type AudioSource = string | Buffer | Uint8Array | Readable;

export interface SubmitInput {
  audio: AudioSource;
  /** The part's file name (default: the path's base name, else `audio`). */
  filename?: string;
  /** The part's content type; absent lets the service sniff the first bytes. */
  contentType?: string;
  title?: string;
  seriesId?: string;
  kind?: 'MEETING' | 'LECTURE' | 'INTERVIEW' | 'VOICE_MEMO' | 'CALL';
  outputLanguage?: 'MATCH' | 'FA' | 'EN';
  naming?: 'default' | 'skip';
  recordedAt?: string;
  useKeyterms?: boolean;
  /** Made once per call when absent, and reused on every retry of this call. */
  idempotencyKey?: string;
  /** Bytes of the request body handed to the connection so far, and the total. */
  onUploadProgress?: (sent: number, total: number) => void;
  signal?: AbortSignal;
}

interface Body {
  total: number;
  /** A fresh body stream for one attempt. */
  open: (onProgress?: (sent: number, total: number) => void) => ReadableStream<Uint8Array>;
}

/**
 * Submits a meeting (POST /recordings, multipart) with one Idempotency-Key for the whole call:
 * every retry (network error, 5xx, 503 UPLOAD_IN_PROGRESS, 429 with Retry-After) resends the same
 * key, so the meeting is made and charged once. The body is streamed from disk for a path.
 */
export async function submitRecording(client: MeetingMemoryClient, input: SubmitInput): Promise<SubmitResult> {
  const key = input.idempotencyKey ?? newIdempotencyKey();
  const boundary = `mm-${randomBytes(12).toString('hex')}`;
  const body = await multipartBody(boundary, input);
  const res = await client.raw('POST', '/recordings', {
    headers: { 'Idempotency-Key': key, 'Content-Type': `multipart/form-data; boundary=${boundary}` },
    signal: input.signal,
    body: () => body.open(input.onUploadProgress),
  });
  return (await res.json()) as SubmitResult;
}

async function multipartBody(boundary: string, input: SubmitInput): Promise<Body> {
  const fields: [string, string][] = [];
  const add = (name: string, value: string | undefined) => value !== undefined && fields.push([name, value]);
  add('title', input.title);
  add('seriesId', input.seriesId);
  add('kind', input.kind);
  add('outputLanguage', input.outputLanguage);
  add('naming', input.naming);
  add('recordedAt', input.recordedAt);
  if (input.useKeyterms !== undefined) add('useKeyterms', String(input.useKeyterms));
  const head = Buffer.from(
    fields.map(([n, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`).join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="${fileName(input).replace(/"/g, '')}"\r\n` +
      (input.contentType ? `Content-Type: ${input.contentType}\r\n` : '') +
      '\r\n',
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const audio = await audioOf(input.audio);
  const total = head.length + audio.size + tail.length;
  return {
    total,
    open: (onProgress) => {
      let sent = 0;
      const parts: (() => AsyncIterable<Uint8Array>)[] = [() => once(head), audio.chunks, () => once(tail)];
      async function* all(): AsyncGenerator<Uint8Array> {
        for (const p of parts) for await (const c of p()) yield c;
      }
      const it = all();
      return new ReadableStream<Uint8Array>({
        async pull(controller) {
          const next = await it.next();
          if (next.done) return controller.close();
          const chunk = next.value instanceof Uint8Array ? next.value : Buffer.from(next.value);
          sent += chunk.length;
          onProgress?.(sent, total);
          controller.enqueue(chunk);
        },
      });
    },
  };
}

async function* once(b: Uint8Array): AsyncGenerator<Uint8Array> {
  yield b;
}

async function audioOf(src: AudioSource): Promise<{ size: number; chunks: () => AsyncIterable<Uint8Array> }> {
  if (typeof src === 'string') {
    const { size } = await fs.stat(src);
    return { size, chunks: () => createReadStream(src, { highWaterMark: 256 * 1024 }) };
  }
  if (src instanceof Uint8Array) return { size: src.length, chunks: () => slices(src) };
  const parts: Buffer[] = [];
  for await (const c of src) parts.push(Buffer.from(c));
  const buf = Buffer.concat(parts);
  return { size: buf.length, chunks: () => slices(buf) };
}

async function* slices(b: Uint8Array): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < b.length; i += 256 * 1024) yield b.subarray(i, i + 256 * 1024);
}

function fileName(input: SubmitInput): string {
  if (input.filename) return input.filename;
  return typeof input.audio === 'string' ? path.basename(input.audio) : 'audio';
}
