import { open, rm, stat } from 'node:fs/promises';
import {
  BUS,
  RECORDING_KINDS,
  OUTPUT_LANGUAGES,
  LIMITS,
  type RequestEntry,
  type ResolvedSeries,
  type SubmitNaming,
  type WalletSpend,
} from '@mm/contract';
import { ApiError, newId, readIdempotencyKey, replayOnlyRefusal, type Principal } from '@mm/http';
import { seriesNotFound } from '../services/access';
import { refusedBy, RemoteError } from '@mm/bus';
import type { RecordingRow } from '../db/schema';
import { inTransaction } from '../db/transaction';
import { isMediaType, sniffAttachment, sniffMedia, wavBytesMissing, wavLengthMs } from '../domain/sniff';
import { parseOffsetDateTime } from '../domain/recorded-at';
import { attachmentMinutesOf, priceOf } from '../domain/pricing';
import {
  decodeCheck,
  extractAudio,
  MediaError,
  mp4BytesMissing,
  probe,
  wavProbe,
  type MediaTools,
} from '../services/media';
import type { UploadsInFlight } from '../services/uploads-in-flight';
import type { UseCaseContext } from './context';
import type { Caller, HeldKey, IdempotencyKeys } from './idempotency';

export interface UploadedFile {
  path: string;
  mimetype: string;
  originalname: string;
  size: number;
}

/** What a submit's body holds, read from the multipart stream (the route's work). */
export interface SubmitParts {
  audio: UploadedFile | undefined;
  attachment: UploadedFile | undefined;
  fields: Record<string, string>;
}

/**
 * The request's body, read only when the meeting is admitted: `check` refuses one not worth
 * reading from its headers alone, `read` streams the parts to disk.
 */
export interface SubmitBody {
  check(): void;
  read(): Promise<SubmitParts>;
}

export interface SubmitInput {
  principal: Principal;
  caller: Caller;
  /** The Idempotency-Key this request claimed, if any. */
  key: HeldKey | null;
  audio: UploadedFile | undefined;
  attachment: UploadedFile | undefined;
  fields: Record<string, string>;
  /** `admit` refused for money: the refusal is answered once the audio's header tells the price. */
  refusedForMoney?: boolean;
}

/** Refusals that state the meeting's price (requiredMinutes), which only its audio tells. */
const PRICED_REFUSALS: readonly string[] = ['INSUFFICIENT_MINUTES', 'TOKEN_DAILY_CAP'];

const LET_GO_WAITS_MS = [0, 2_000, 10_000, 30_000, 120_000];
const TEXT_PARTS = ['recordedAt', 'naming', 'useKeyterms', 'title', 'seriesId', 'kind', 'outputLanguage'] as const;
const SUBMIT_NAMINGS = ['default', 'skip'] as const satisfies readonly SubmitNaming[];
const oneOf = <T extends string>(values: readonly T[], v: string): v is T => (values as readonly string[]).includes(v);
/**
 * A WAV file may end this many bytes short of what its header states and still be taken (writers
 * that miscount a trailing chunk; an eighth of a second of 16 kHz speech at most): past it, it was
 * cut short (400 AUDIO_INCOMPLETE), not read as silence ending in NO_SPEECH.
 */
const WAV_SHORT_TOLERANCE_BYTES = 4096;

async function head(path: string, n = 4096): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** The submit form's text parts, validated (400 VALIDATION names the part). */
export function readSubmitFields(fields: Record<string, string>, now: Date) {
  for (const name of Object.keys(fields))
    if (!(TEXT_PARTS as readonly string[]).includes(name))
      throw new ApiError('VALIDATION', `part ${name} is not allowed`);
  let recordedAt = now;
  if (fields.recordedAt !== undefined) {
    const at = parseOffsetDateTime(fields.recordedAt);
    if (!at) throw new ApiError('VALIDATION', 'recordedAt must be ISO 8601 with an offset, naming a real day and time');
    const t = at.getTime();
    if (t > now.getTime() + LIMITS.recordedAtMaxFutureMinutes * 60_000)
      throw new ApiError('VALIDATION', 'recordedAt may be at most 5 minutes in the future');
    if (new Date(t).getUTCFullYear() < LIMITS.recordedAtMinYear)
      throw new ApiError('VALIDATION', 'recordedAt must not be before the year 2000');
    recordedAt = new Date(t);
  }
  const naming = fields.naming ?? 'default';
  if (!oneOf(SUBMIT_NAMINGS, naming)) throw new ApiError('VALIDATION', 'naming must be default or skip');
  const useKeyterms = fields.useKeyterms ?? 'false';
  if (useKeyterms !== 'true' && useKeyterms !== 'false')
    throw new ApiError('VALIDATION', 'useKeyterms must be true or false');
  const title = fields.title === undefined ? null : fields.title.replace(/\s+/g, ' ').trim();
  // Characters as the contract counts them (code points: an emoji is one).
  if (title !== null && (title.length === 0 || [...title].length > 200))
    throw new ApiError('VALIDATION', 'title must be 1 to 200 characters');
  const kind = fields.kind ?? 'MEETING';
  if (!oneOf(RECORDING_KINDS, kind))
    throw new ApiError('VALIDATION', `kind must be one of ${RECORDING_KINDS.join(', ')}`);
  const outputLanguage = fields.outputLanguage ?? 'MATCH';
  if (!oneOf(OUTPUT_LANGUAGES, outputLanguage))
    throw new ApiError('VALIDATION', `outputLanguage must be one of ${OUTPUT_LANGUAGES.join(', ')}`);
  const seriesId = fields.seriesId === undefined ? null : fields.seriesId.trim();
  if (seriesId !== null && (seriesId.length < 1 || seriesId.length > 64))
    throw new ApiError('VALIDATION', 'seriesId must be 1 to 64 characters');
  return { recordedAt, naming, useKeyterms: useKeyterms === 'true', title, kind, outputLanguage, seriesId };
}

/**
 * Accepts a meeting: claims its Idempotency-Key, checks the wallet admits it, reads the body,
 * checks and measures the audio, prices it, holds the minutes (all before any transaction), then
 * creates the meeting, its claim's completion, its event and its first job in one transaction.
 * Nothing is left behind on error: the claim, the hold and the stored files go.
 */
export class SubmitRecording {
  constructor(
    private readonly ctx: UseCaseContext,
    private readonly keys: IdempotencyKeys,
    private readonly uploads: UploadsInFlight,
    private readonly opts: { maxRecordingMinutes: number; tools: MediaTools },
  ) {}

  /**
   * A submit: a key used before answers its meeting; else the key is claimed, the meeting
   * admitted, the body read and the meeting made. Followed while it runs, so a shutdown lets it
   * finish or drops its claim.
   */
  async handle(
    principal: Principal,
    source: Caller['source'],
    keyHeader: unknown,
    body: SubmitBody,
  ): Promise<RecordingRow> {
    const caller: Caller = { accountId: principal.accountId, tokenId: principal.tokenId, source };
    const claim = await this.keys.claim(caller, readIdempotencyKey(keyHeader));
    if (claim.kind === 'replay') return this.replayed(claim.recordingId);
    const held = claim.kind === 'claimed' ? claim.held : null;
    const storing = (async () => {
      try {
        body.check();
        const refusedForMoney = await this.admit(principal);
        const parts = await body.read();
        return await this.submit({ principal, caller, key: held, ...parts, refusedForMoney });
      } catch (err) {
        await this.keys.release(caller, held);
        throw err;
      }
    })();
    this.uploads.track(storing, () => this.keys.release(caller, held));
    return storing;
  }

  /** The meeting a key made; purged from the trash, it is gone (the key still never makes another). */
  private async replayed(id: string) {
    const r = await this.ctx.repos.recordings.get(this.ctx.db, id);
    if (!r) throw new ApiError('NOT_FOUND', 'The meeting this Idempotency-Key made was deleted for good.');
    return r;
  }

  /**
   * Over the rate budget (`refusal`, the gateway's replay-only header): answered only as a
   * replay of a finished submit with this key; the upload itself is never read.
   */
  async replay(
    principal: Principal,
    source: Caller['source'],
    keyHeader: unknown,
    refusal: string,
  ): Promise<RecordingRow> {
    const caller: Caller = { accountId: principal.accountId, tokenId: principal.tokenId, source };
    let key: string | null;
    try {
      key = readIdempotencyKey(keyHeader);
    } catch {
      key = null;
    }
    const replayed = key ? await this.keys.replayOf(caller, key) : null;
    if (!replayed) replayOnlyRefusal(refusal);
    return this.replayed(replayed);
  }

  /**
   * Checks one minute before the upload is read: any meeting costs at least that. A refusal that
   * needs nothing of the body (the service's daily limit) is thrown at once, and a flood of such
   * submits never streams a body into the service. A refusal for money must state the price
   * (contract: requiredMinutes), which only the audio tells: true then, and `submit` answers it
   * once the audio's header is read (issue 25).
   */
  async admit(principal: Principal): Promise<boolean> {
    return this.refusesForMoney(() =>
      this.spend(BUS.walletHold, { ...this.spender(principal, newId('rec'), 1), dryRun: true }),
    );
  }

  private async refusesForMoney(check: () => Promise<void>): Promise<boolean> {
    try {
      await check();
      return false;
    } catch (err) {
      if (err instanceof ApiError && PRICED_REFUSALS.includes(err.code)) return true;
      throw err;
    }
  }

  async submit(i: SubmitInput): Promise<RecordingRow> {
    const now = new Date(Math.floor(Date.now()));
    if (!i.audio) throw new ApiError('VALIDATION', 'part audio is required');
    const f = readSubmitFields(i.fields, now);
    const id = newId('rec');
    const audioKey = `audio/${id}/source`;
    let attachmentKey: string | null = null;
    let attachmentMinutes = 0;

    if (i.attachment && i.attachment.size > LIMITS.attachmentMaxMb * 1024 * 1024)
      throw new ApiError('ATTACHMENT_TOO_LARGE', 'The attachment is larger than 10 MB.');
    // `admit` checked one minute before the body was read; an attachment's minutes, known from its
    // size, raise the least price, checked again before the audio is measured or decoded. Once
    // refused, the audio is only probed (its header, never decoded) to state the price.
    let refused = i.refusedForMoney ?? false;
    if (i.attachment && !refused)
      refused = await this.refusesForMoney(() =>
        this.spend(BUS.walletHold, {
          ...this.spender(i.principal, id, 1 + attachmentMinutesOf(i.attachment!.size)),
          dryRun: true,
        }),
      );
    let measured = await this.measure(i, id, refused);
    if (i.attachment) {
      const type = sniffAttachment(await head(i.attachment.path), i.attachment.originalname);
      if (!type) throw new ApiError('ATTACHMENT_TYPE', 'The attachment is not PDF, PPTX or DOCX.');
      attachmentMinutes = attachmentMinutesOf(i.attachment.size);
      attachmentKey = `audio/${id}/attachment.${type}`;
    }

    const series = f.seriesId ? await this.resolveSeries(i.principal, f.seriesId) : null;
    const keyterms = await this.keyterms(i.principal.accountId, series);
    const usesKeyterms = f.useKeyterms && keyterms.length > 0;
    let price = priceOf({ durationMs: measured.durationMs, usesKeyterms, attachmentMinutes });
    if (refused) {
      // The wallet refuses again, now stating this price; it passes only if the account changed
      // meanwhile (minutes bought), and the meeting is then measured in full like any other.
      await this.spend(BUS.walletHold, { ...this.spender(i.principal, id, price.minutes), dryRun: true });
      measured = await this.measure(i, id, false);
      price = priceOf({ durationMs: measured.durationMs, usesKeyterms, attachmentMinutes });
    }
    const { durationMs, audioPath } = measured;

    await this.hold(this.spender(i.principal, id, price.minutes));
    const { db, repos, store } = this.ctx;
    try {
      await store.adopt(audioPath, audioKey);
      if (i.attachment && attachmentKey) await store.adopt(i.attachment.path, attachmentKey);
      return await inTransaction(db, async (trx) => {
        const jobId = newId('job');
        const row = await repos.recordings.insert(trx, {
          id,
          accountId: i.principal.accountId,
          tokenId: i.principal.tokenId,
          source: i.caller.source,
          status: 'QUEUED',
          title: f.title,
          kind: f.kind,
          outputLanguage: f.outputLanguage,
          naming: f.naming,
          keyterms: usesKeyterms ? keyterms : [],
          seriesId: series?.id ?? null,
          seriesName: series?.name ?? null,
          seriesTitleStyle: series?.titleStyle ?? null,
          seriesDateCalendar: series?.dateCalendar ?? null,
          recordedAt: f.recordedAt,
          createdAt: now,
          readyAt: null,
          durationMs,
          minutes: price.minutes,
          attachmentMinutes,
          audioKey,
          attachmentKey,
          holdRef: id,
          jobId,
          failedStep: null,
          errorCode: null,
          errorRetryable: null,
          namingDeadline: null,
          deletedAt: null,
        });
        if (i.key) await this.keys.complete(trx, i.caller, i.key, id);
        await repos.recordings.emit(trx, row, 'recording.created', {});
        await repos.recordings.requestJob(trx, BUS.transcribeJob, {
          jobId,
          step: 'transcribe',
          recordingId: id,
          accountId: row.accountId,
          audioKey,
          keyterms: row.keyterms,
          attempt: 1,
        });
        return row;
      });
    } catch (err) {
      await this.spend(BUS.walletRelease, { accountId: i.principal.accountId, reference: id }).catch(() => undefined);
      await store.remove(`audio/${id}`).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Sniffs, probes and (for video) extracts; returns the audio's length and the file to keep.
   * `headerOnly`: the length as the file's header states it, nothing decoded or extracted (a
   * refusal's price).
   */
  private async measure(
    i: SubmitInput,
    id: string,
    headerOnly: boolean,
  ): Promise<{ durationMs: number; audioPath: string }> {
    const audio = i.audio!;
    const first = await head(audio.path);
    const sniffed = sniffMedia(first);
    const declaredVideo = /^video\//i.test(audio.mimetype);
    if (!isMediaType(audio.mimetype) && !sniffed) throw new ApiError('VALIDATION', 'Unsupported audio type');
    const size = sniffed?.format === 'wav' ? (await stat(audio.path)).size : 0;
    if (sniffed?.format === 'wav' && wavBytesMissing(first, size) > WAV_SHORT_TOLERANCE_BYTES)
      throw new ApiError('AUDIO_INCOMPLETE', 'The audio file was cut short.');
    const looksVideo = declaredVideo || sniffed?.family === 'video';
    // A plain PCM WAV states its length; anything else is measured by ffprobe.
    const wavMs = sniffed?.format === 'wav' ? wavLengthMs(first, size) : null;
    let p;
    try {
      p = wavMs !== null ? wavProbe(wavMs) : await probe(this.opts.tools, audio.path);
      if (sniffed?.family === 'container' && p.hasAudio && !headerOnly)
        p = { ...p, durationMs: (await decodeCheck(this.opts.tools, audio.path)).durationMs || p.durationMs };
    } catch (err) {
      if (err instanceof MediaError && err.kind === 'unavailable')
        throw new ApiError(looksVideo ? 'VIDEO_UNAVAILABLE' : 'INTERNAL', 'Audio tools are unavailable right now.');
      if (looksVideo) throw new ApiError('VIDEO_UNREADABLE', 'The video cannot be read.');
      // ffmpeg names a missing end only when the index (moov) is gone; a fast-start file cut short
      // fails on its last packet instead, and its boxes tell.
      const cutShort =
        err instanceof MediaError &&
        (err.kind === 'incomplete' || (sniffed?.format === 'mp4' && (await mp4BytesMissing(audio.path)) > 0));
      if (cutShort) throw new ApiError('AUDIO_INCOMPLETE', 'The audio file was cut short.');
      throw new ApiError('INVALID_AUDIO', 'The file is not readable audio.');
    }
    let audioPath = audio.path;
    if (p.hasVideo) {
      if (!i.principal.features.videoUpload)
        throw new ApiError('VIDEO_UPLOAD_DISABLED', 'Video upload is switched off; send audio.');
      if (!p.hasAudio) throw new ApiError('VIDEO_NO_AUDIO', 'The video has no audio track.');
    }
    if (p.hasVideo && !headerOnly) {
      audioPath = await this.ctx.store.tempPath();
      try {
        await extractAudio(this.opts.tools, audio.path, audioPath);
      } catch (err) {
        await rm(audioPath, { force: true });
        if (err instanceof MediaError && err.kind === 'unavailable')
          throw new ApiError('VIDEO_UNAVAILABLE', 'Audio cannot be taken from a video right now.');
        throw new ApiError('VIDEO_UNREADABLE', 'The video cannot be read.');
      }
      await rm(audio.path, { force: true });
    } else if (!p.hasAudio) {
      throw new ApiError('INVALID_AUDIO', 'The file has no audio.');
    }
    if (p.durationMs === null || p.durationMs <= 0)
      throw new ApiError('INVALID_AUDIO', 'The audio has no measurable length.');
    if (p.durationMs > this.opts.maxRecordingMinutes * 60_000)
      throw new ApiError('RECORDING_TOO_LONG', `The meeting is longer than ${this.opts.maxRecordingMinutes} minutes.`);
    void id;
    return { durationMs: p.durationMs, audioPath };
  }

  private async resolveSeries(p: Principal, seriesId: string): Promise<ResolvedSeries> {
    if (!p.features.series) throw seriesNotFound();
    try {
      const s = await this.ctx.call(BUS.seriesResolve, { accountId: p.accountId, seriesId });
      if (s.access !== 'owner') throw seriesNotFound();
      return s;
    } catch (err) {
      if (err instanceof RemoteError && err.code === 'NOT_FOUND') throw seriesNotFound();
      throw err instanceof ApiError
        ? err
        : new ApiError('INTERNAL', 'The series service did not answer; retry with the same key.');
    }
  }

  /** The words a meeting is transcribed with: series terms first, then (if inherited) the account's, up to 100. */
  private async keyterms(accountId: string, series: ResolvedSeries | null): Promise<string[]> {
    let account: string[] = [];
    if (!series || series.inheritAccountKeyterms) {
      try {
        account = (await this.ctx.call(BUS.settingsGet, { accountId })).keyterms;
      } catch {
        throw new ApiError('INTERNAL', 'The account service did not answer; retry with the same key.');
      }
    }
    const merged: string[] = [];
    for (const t of [...(series?.keyterms ?? []), ...account])
      if (!merged.some((m) => m.toLowerCase() === t.toLowerCase())) merged.push(t);
    return merged.slice(0, LIMITS.keytermsMax);
  }

  /** The wallet's spend request for a meeting of this principal. */
  private spender(p: Principal, reference: string, minutes: number): WalletSpend {
    return {
      accountId: p.accountId,
      reference,
      minutes,
      tokenId: p.tokenId,
      dailyMinuteCap: p.source === 'token' ? p.dailyMinuteCap : null,
      showBalance: p.source === 'app' || p.scopes.includes('account:read'),
    };
  }

  /**
   * Holds the meeting's minutes. A hold the wallet did not answer in time may still land after
   * the request has failed: it is let go in the background (found by its reference, the meeting
   * id, which no retry reuses), so it neither waits an hour for the reconciler nor counts
   * against the retry's minutes.
   */
  private async hold(payload: WalletSpend): Promise<void> {
    try {
      await this.spend(BUS.walletHold, payload);
    } catch (err) {
      if (!(err instanceof ApiError && (BUS.walletHold.refusals as readonly string[]).includes(err.code)))
        void this.letGo(payload.accountId, payload.reference);
      throw err;
    }
  }

  /** Releases a hold that may not have landed yet: tries again while the wallet knows no such hold. */
  private async letGo(accountId: string, reference: string): Promise<void> {
    for (const waitMs of LET_GO_WAITS_MS) {
      await new Promise((r) => setTimeout(r, waitMs).unref());
      try {
        await this.ctx.call(BUS.walletRelease, { accountId, reference }, { timeoutMs: 10_000 });
        return;
      } catch {
        // Not there yet (NOT_FOUND) or no answer: the next try, then the reconciler, finish it.
      }
    }
  }

  private async spend<P, R>(entry: RequestEntry<P, R>, payload: P): Promise<void> {
    try {
      await this.ctx.call(entry, payload, { timeoutMs: 10_000 });
    } catch (err) {
      if (refusedBy(entry, err)) throw new ApiError(err.code, err.message, err.details, err.headers);
      throw new ApiError('INTERNAL', 'The wallet did not answer; retry with the same key.');
    }
  }
}
