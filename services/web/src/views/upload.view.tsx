import { OUTPUT_LANGUAGES } from '@mm/contract';
import type { Speech } from '../i18n/messages';
import { meetingText } from '../i18n/meeting-messages';
import { uploadText } from '../i18n/upload-messages';
import type { KINDS } from './lists.views';
import { Csrf, type Viewer } from './layout';

export interface UploadLimits {
  maxUploadMb: number;
  maxRecordingMinutes: number;
  attachmentMaxMb: number;
  pieceBytes: number;
}

/**
 * The upload and record page. The form is the script's: it measures the file for the price,
 * sends it in pieces with a progress bar and one Idempotency-Key per file, and shows the
 * service's refusal in the page (the words of `data-messages`, by the contract's code).
 */
export function UploadView(props: {
  s: Speech;
  base: string;
  viewer: Viewer;
  /** The owner's series; choosing one starts the kind and the digest language at its defaults. */
  series: { id: string; name: string; defaultKind: string; defaultOutputLanguage: string }[];
  kinds: typeof KINDS;
  balance: number | null;
  limits: UploadLimits;
}) {
  const { s, base, viewer, limits } = props;
  const u = uploadText(s.locale);
  // The kinds named as the Meetings filter names them.
  const kindWords = meetingText(s.locale);
  const messages = {
    ...u,
    UPLOAD_TOO_LARGE: u.UPLOAD_TOO_LARGE.replace('{mb}', s.number(limits.maxUploadMb)),
    RECORDING_TOO_LONG: u.RECORDING_TOO_LONG.replace('{minutes}', s.number(limits.maxRecordingMinutes)),
  };
  return (
    <>
      <p>{u.uploadIntro}</p>
      <noscript>
        <p class="notice notice-error">{u.needsScript}</p>
      </noscript>
      <form
        id="upload-form"
        class="stack"
        method="post"
        action={`${base}/uploads`}
        data-uploads={`${base}/uploads`}
        data-max-bytes={limits.maxUploadMb * 1024 * 1024}
        data-attachment-max-bytes={limits.attachmentMaxMb * 1024 * 1024}
        data-piece-bytes={limits.pieceBytes}
        data-locale={s.locale}
        data-messages={JSON.stringify(messages)}
      >
        <Csrf viewer={viewer} />
        <div class="dropzone" id="dropzone">
          <label>
            {u.audioFile}
            <span class="hint">{u.dropHere}</span>
            <input type="file" id="audio-file" name="audio" accept="audio/*,video/*" />
          </label>
        </div>
        <section class="card" aria-labelledby="record-h" id="recorder" hidden>
          <h2 id="record-h">{u.record}</h2>
          <div class="row">
            <button type="button" id="record-start">
              {u.recordStart}
            </button>
            <button type="button" id="record-stop" class="danger" disabled>
              {u.recordStop}
            </button>
            <span id="record-state" role="status" aria-live="polite" />
          </div>
        </section>
        <label>
          {u.attachment}
          <input type="file" id="attachment-file" name="attachment" accept=".pdf,.pptx,.docx,application/pdf" />
        </label>
        <label>
          {u.title}
          <input type="text" name="title" maxLength={200} />
        </label>
        <label>
          {u.series}
          <select name="seriesId">
            <option value="">{u.noSeries}</option>
            {props.series.map((x) => (
              <option key={x.id} value={x.id} data-kind={x.defaultKind} data-language={x.defaultOutputLanguage}>
                {x.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {u.kind}
          <select name="kind">
            {props.kinds.map((k) => (
              <option key={k} value={k}>
                {kindWords[`kind_${k}`]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {u.outputLanguage}
          <select name="outputLanguage">
            {OUTPUT_LANGUAGES.map((l) => (
              <option key={l} value={l}>
                {u[`outputLanguage_${l}`]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {u.naming}
          <select name="naming">
            <option value="default">{u.namingDefault}</option>
            <option value="skip">{u.namingSkip}</option>
          </select>
        </label>
        <div class="check">
          <input type="checkbox" id="use-keyterms" name="useKeyterms" value="true" />
          <label for="use-keyterms">{u.useKeyterms}</label>
        </div>
        <p>
          <span>{u.price}: </span>
          <output id="price" class="price" aria-live="polite">
            {u.priceUnknown}
          </output>
        </p>
        {props.balance !== null ? (
          <p class="hint" id="balance" data-minutes={props.balance}>
            {u.balance.replace('{minutes}', s.number(props.balance))}
          </p>
        ) : null}
        <label>
          {u.progress}
          <progress id="upload-progress" max={100} value={0} />
        </label>
        <p id="upload-error" class="notice notice-error" role="alert" hidden />
        <p id="upload-status" role="status" aria-live="polite" />
        <button type="submit" id="upload-send" disabled>
          {u.send}
        </button>
      </form>
    </>
  );
}
