/**
 * Meeting uploads for the benches: a multipart/form-data body built by hand around a file that is
 * streamed from disk (the bench never holds the audio in memory either), sent with node:http and
 * an exact Content-Length. Also writes large WAV files without holding them.
 */
import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import { BenchError } from './types';
import { wavHeader } from '../../support/media';

export interface UploadResult {
  status: number;
  /** The answer's body, parsed when it is JSON. */
  body: unknown;
  text: string;
  /** Bytes of the whole request body (multipart framing included). */
  bytes: number;
  /** From the request's start to the last byte of the answer. */
  ms: number;
  /** From the request's start to the last byte of the body handed to the socket. */
  sentMs: number | null;
}

export interface UploadFile {
  /** Form field name, e.g. `audio`. */
  field: string;
  path: string;
  filename: string;
  contentType: string;
}

/**
 * POSTs `fields` and one file as multipart/form-data, the file streamed from disk. Resolves with
 * the answer whatever its status (the caller decides what is an error); rejects on socket errors.
 */
export async function postMultipart(
  url: string,
  headers: Record<string, string>,
  fields: Record<string, string>,
  file: UploadFile,
  timeoutMs = 600_000,
  /** Send no faster than this (a slow client's upload); unlimited when absent. */
  bytesPerSecond?: number,
  /** Ask first (`Expect: 100-continue`, as curl does for bodies over 1 MB): the body is sent only after a 100. */
  expectContinue = false,
): Promise<UploadResult> {
  const boundary = `----mm-bench-${randomBytes(12).toString('hex')}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') +
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = statSync(file.path).size;
  const bytes = head.length + size + tail.length;
  const u = new URL(url);
  const started = performance.now();
  let sentMs: number | null = null;

  return new Promise<UploadResult>((resolve, reject) => {
    const req = http.request(
      {
        host: u.hostname,
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: 'POST',
        headers: {
          ...headers,
          'Content-Type': `multipart/form-data; boundary=${boundary}`,
          'Content-Length': String(bytes),
          ...(expectContinue ? { Expect: '100-continue' } : {}),
        },
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: res.statusCode ?? 0, body, text, bytes, ms: performance.now() - started, sentMs });
          // An early answer (an error before the whole body was read): stop sending.
          if (sentMs === null) req.destroy();
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new BenchError(`upload to ${url} timed out after ${timeoutMs / 1000} s`)));
    req.on('error', reject);
    const startBody = (): void => {
      req.write(head);
      const stream = createReadStream(file.path, { highWaterMark: bytesPerSecond ? 64 * 1024 : 256 * 1024 });
      const send = async (): Promise<void> => {
        let sent = 0;
        for await (const chunk of stream as AsyncIterable<Buffer>) {
          if (req.destroyed) return;
          sent += chunk.length;
          if (!req.write(chunk)) await drainedOrClosed(req);
          // A slow client: wait while the bytes sent run ahead of the rate.
          const ahead = bytesPerSecond ? (sent / bytesPerSecond) * 1000 - (performance.now() - started) : 0;
          if (ahead > 0) await new Promise((r) => setTimeout(r, ahead));
        }
        req.end(tail, () => {
          sentMs = performance.now() - started;
        });
      };
      send().catch((err: unknown) => req.destroy(err instanceof Error ? err : new Error(String(err))));
    };
    if (expectContinue) {
      req.flushHeaders();
      // Refused without a 100: the body is never sent (the answer's handler above ends the request).
      req.once('continue', startBody);
    } else startBody();
  });
}

function drainedOrClosed(req: http.ClientRequest): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      req.off('drain', done);
      req.off('close', done);
      resolve();
    };
    req.on('drain', done);
    req.on('close', done);
  });
}

/**
 * Writes a 16 kHz mono 16-bit WAV of `dataBytes` bytes of audio (a quiet tone with a little noise,
 * one second repeated), streamed to disk with backpressure. Returns its length in ms.
 */
export async function writeLargeWav(file: string, dataBytes: number): Promise<number> {
  const rate = 16_000;
  const samples = Math.floor(dataBytes / 2);
  const header = wavHeader(samples * 2, rate);
  const second = Buffer.alloc(rate * 2);
  let seed = 12345;
  for (let i = 0; i < rate; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const noise = ((seed >> 8) % 400) - 200;
    second.writeInt16LE(Math.round(2000 * Math.sin((2 * Math.PI * 220 * i) / rate)) + noise, i * 2);
  }
  const out = createWriteStream(file);
  const write = async (b: Buffer) => {
    if (!out.write(b)) await once(out, 'drain');
  };
  await write(header);
  let left = samples * 2;
  while (left > 0) {
    const n = Math.min(left, second.length);
    await write(n === second.length ? second : second.subarray(0, n));
    left -= n;
  }
  out.end();
  await once(out, 'finish');
  return Math.round((samples / rate) * 1000);
}
