import { rm } from 'node:fs/promises';
import path from 'node:path';
import multer from 'multer';
import type { Request, RequestHandler, Response } from 'express';
import { allowBody, ApiError, holdsNul, principalOf, REPLAY_ONLY_HEADER } from '@mm/http';
import { LIMITS } from '@mm/contract';
import type { ObjectStore } from '@mm/store';
import { cappedDiskStorage, onOverflow } from './capped-disk-storage';
import type { SubmitBody, SubmitParts, SubmitRecording, UploadedFile } from '../usecases/submit';
import type { Caller } from '../usecases/idempotency';
import type { Views } from '../services/views';
import type { RecordingRow } from '../db/schema';

export interface UploadDeps {
  submit: SubmitRecording;
  views: Views;
  store: ObjectStore;
  maxUploadMb: number;
}

const MB = 1024 * 1024;
/** The parts that carry files, one of each at most. */
const FILE_PARTS = ['audio', 'attachment'] as const;

/**
 * The submit shared by POST /recordings and the admin API's app upload: reads the multipart
 * stream to the store's disk (never into memory) when the submit use case asks for it (after the
 * Idempotency-Key is claimed and the wallet admits the meeting), and answers its meeting. The
 * files go whatever happens.
 */
export function submitReader(
  deps: UploadDeps,
  source: Caller['source'],
): (req: Request, res: Response) => Promise<RecordingRow> {
  const upload = multer({
    storage: cappedDiskStorage(path.join(deps.store.scratchDir, 'tmp'), { attachment: LIMITS.attachmentMaxMb * MB }),
    limits: { fileSize: deps.maxUploadMb * MB, files: 2, fields: 20, fieldSize: 64 * 1024, parts: 24 },
  }).fields(FILE_PARTS.map((name) => ({ name, maxCount: 1 })));
  return (req, res) => readSubmit(deps, source, upload, req, res);
}

async function readSubmit(
  deps: UploadDeps,
  source: Caller['source'],
  upload: RequestHandler,
  req: Request,
  res: Response,
): Promise<RecordingRow> {
  let files: UploadedFile[] = [];
  const body: SubmitBody = {
    check: () => {
      const declared = Number(req.headers['content-length'] ?? 0);
      if (declared > deps.maxUploadMb * MB + 11 * MB)
        throw new ApiError('UPLOAD_TOO_LARGE', `The file is larger than ${deps.maxUploadMb} MB.`);
      if (!/^multipart\/form-data/i.test(req.headers['content-type'] ?? ''))
        throw new ApiError('VALIDATION', 'body must be multipart/form-data with an audio part');
    },
    read: async (): Promise<SubmitParts> => {
      // Closed while the checks ran (its client or the gateway went away): the multipart parser
      // would wait for a 'close' already past, keeping the claim until it goes stale.
      if (req.destroyed) throw new ApiError('VALIDATION', 'the request was cut off before its body was read');
      // Only now is the body worth its bytes: a client (the gateway) waiting on 100 Continue sends it.
      allowBody(req, res);
      await new Promise<void>((resolve, reject) => {
        onOverflow(req, reject);
        upload(req, res, (err: unknown) => (err ? reject(multipartError(err)) : resolve()));
      });
      const parts = (req.files ?? {}) as Record<string, Express.Multer.File[]>;
      files = Object.values(parts).flat();
      for (const name of FILE_PARTS)
        if (Object.hasOwn(req.body ?? {}, name))
          throw new ApiError('VALIDATION', `part ${name} must be a file (a part with a filename)`);
      // multer gathers a repeated text part into an array: refused, never read as one value.
      for (const [name, value] of Object.entries((req.body ?? {}) as Record<string, unknown>))
        if (typeof value !== 'string') throw new ApiError('VALIDATION', `part ${name} sent more than once`);
      if (holdsNul([req.body, files.map((f) => f.originalname)]))
        throw new ApiError('VALIDATION', 'a part must not contain the NUL character (U+0000)');
      return {
        audio: parts.audio?.[0],
        attachment: parts.attachment?.[0],
        fields: { ...(req.body as Record<string, string>) },
      };
    },
  };
  try {
    const p = principalOf(res);
    const key = req.headers['idempotency-key'];
    const replayOnly = req.headers[REPLAY_ONLY_HEADER];
    // Over the rate budget: answered only as a replay; the upload itself is never read.
    return typeof replayOnly === 'string'
      ? await deps.submit.replay(p, source, key, replayOnly)
      : await deps.submit.handle(p, source, key, body);
  } catch (err) {
    throw mapMulterError(err);
  } finally {
    await Promise.all(files.map((f) => rm(f.path, { force: true })));
  }
}

/** What the multipart parser refused is the caller's malformed body, unless the disk failed (a system error). */
function multipartError(err: unknown): unknown {
  const e = err as { syscall?: string; message?: string };
  if (err instanceof multer.MulterError || err instanceof ApiError || e?.syscall) return err;
  return new ApiError('VALIDATION', `multipart body: ${e?.message ?? 'unreadable'}`);
}

function mapMulterError(err: unknown): unknown {
  if (err instanceof multer.MulterError) {
    if (err.code === 'LIMIT_FILE_SIZE')
      return err.field === 'attachment'
        ? new ApiError('ATTACHMENT_TOO_LARGE', 'The attachment is larger than 10 MB.')
        : new ApiError('UPLOAD_TOO_LARGE', 'The file is larger than the largest upload accepted.');
    if (err.code === 'LIMIT_UNEXPECTED_FILE') {
      const twice = (FILE_PARTS as readonly string[]).includes(err.field ?? '');
      return new ApiError(
        'VALIDATION',
        twice ? `part ${err.field} sent more than once` : `part ${err.field ?? ''} is not allowed`.trim(),
      );
    }
    return new ApiError('VALIDATION', `multipart body: ${err.message}`);
  }
  const e = err as { message?: string };
  if (!(err instanceof ApiError) && e?.message && /Multipart|Unexpected end of form|boundary/i.test(e.message))
    return new ApiError('VALIDATION', `multipart body: ${e.message}`);
  return err;
}
