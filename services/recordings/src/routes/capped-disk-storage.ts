import { createWriteStream, mkdirSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import multer from 'multer';

const overflowWatchers = new WeakMap<object, (err: Error) => void>();

/**
 * Tells `fn` at once when a part of this request goes over its limit. multer itself reports the
 * error only after the whole body has arrived; the handler can answer before.
 */
export function onOverflow(req: object, fn: (err: Error) => void): void {
  overflowWatchers.set(req, fn);
}

/**
 * multer's disk storage with a byte limit per field, enforced while the part streams: a part over
 * its limit fails at once (LIMIT_FILE_SIZE naming the field) instead of after the whole body (an
 * attachment's 10 MB, while the audio may be 500 MB). Fields without a limit take multer's own.
 */
export function cappedDiskStorage(dir: string, maxBytes: Record<string, number>): multer.StorageEngine {
  mkdirSync(dir, { recursive: true });
  return {
    _handleFile(req, file, cb) {
      const target = path.join(dir, randomUUID());
      const out = createWriteStream(target);
      const max = maxBytes[file.fieldname] ?? Number.POSITIVE_INFINITY;
      let size = 0;
      let done = false;
      const finish = (err: Error | null, info?: Partial<Express.Multer.File>) => {
        if (done) return;
        done = true;
        cb(err, info);
      };
      file.stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size <= max || done) return;
        file.stream.unpipe(out);
        file.stream.resume();
        out.destroy();
        void rm(target, { force: true });
        const err = new multer.MulterError('LIMIT_FILE_SIZE', file.fieldname);
        overflowWatchers.get(req)?.(err);
        finish(err);
      });
      out.on('error', (err) => finish(err));
      out.on('finish', () => finish(null, { destination: dir, filename: path.basename(target), path: target, size }));
      file.stream.pipe(out);
    },
    _removeFile(_req, file, cb) {
      rm(file.path, { force: true }).then(() => cb(null), cb);
    },
  };
}
