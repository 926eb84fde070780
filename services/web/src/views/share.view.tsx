import type { Speech } from '../i18n/messages';
import { shareText } from '../i18n/share-messages';
import { meetingText } from '../i18n/meeting-messages';
import { PostForm, type Viewer } from './layout';
import { clockOf, Digest, speakerName, TurnText, type DigestSection, type Speaker, type Turn } from './meeting-parts';
import type { ShareLink } from '../db/share-link.repository';

/** The owner's share section of a ready meeting: make a link (expiry, audio or not), the links made, revoke. */
export function ShareSection({
  s,
  viewer,
  action,
  links,
  audioKept,
}: {
  s: Speech;
  viewer: Viewer;
  action: string;
  links: ShareLink[];
  /** False once the audio was deleted after the digest: no link can include it. */
  audioKept: boolean;
}) {
  const t = shareText(s.locale);
  const now = Date.now();
  const state = (l: ShareLink) =>
    l.revokedAt ? t.revoked : l.expiresAt && Date.parse(l.expiresAt) <= now ? t.expired : t.live;
  return (
    <section class="card" aria-labelledby="share-h" id="share">
      <h2 id="share-h">{t.share}</h2>
      <p class="hint">{t.shareIntro}</p>
      <PostForm viewer={viewer} action={`${action}/shares`} class="stack">
        <label>
          {t.shareExpiry}
          <select name="expiry">
            <option value="7">{t.expiry7}</option>
            <option value="1">{t.expiry1}</option>
            <option value="30">{t.expiry30}</option>
            <option value="never">{t.expiryNever}</option>
          </select>
        </label>
        {audioKept ? (
          <div class="check">
            <input type="checkbox" id="share-audio" name="audio" value="yes" />
            <label for="share-audio">{t.shareAudio}</label>
          </div>
        ) : null}
        <button type="submit">{t.shareCreate}</button>
      </PostForm>
      <h3>{t.yourLinks}</h3>
      {links.length === 0 ? (
        <p>{t.noLinks}</p>
      ) : (
        <div class="scroll">
          <table>
            <thead>
              <tr>
                <th scope="col">{t.made}</th>
                <th scope="col">{t.expires}</th>
                <th scope="col">{t.withAudio}</th>
                <th scope="col">{t.state}</th>
                <th scope="col">
                  <span class="sr-only">{t.revoke}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {links.map((l) => (
                <tr key={l.id} data-share={l.id}>
                  <td>{s.date(l.createdAt)}</td>
                  <td>{l.expiresAt ? s.date(l.expiresAt) : t.never}</td>
                  <td>{l.includeAudio ? t.yes : t.no}</td>
                  <td>{state(l)}</td>
                  <td>
                    {state(l) === t.live ? (
                      <PostForm
                        viewer={viewer}
                        action={`${action}/shares/${encodeURIComponent(l.id)}/revoke`}
                        class="inline"
                      >
                        <button type="submit" class="danger">
                          {t.revoke}
                        </button>
                      </PostForm>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** After making a link (a share link, a series invite): the link, shown once, to copy, and the way back. */
export function LinkCreated({
  s,
  note,
  label,
  field,
  url,
  back,
  backText,
}: {
  s: Speech;
  note: string;
  label: string;
  field: string;
  url: string;
  back: string;
  backText: string;
}) {
  return (
    <section class="card created" aria-labelledby={`${field}-note`}>
      <p id={`${field}-note`}>{note}</p>
      <div class="copyrow">
        <input id={field} type="text" readOnly value={url} dir="ltr" aria-label={label} spellcheck={false} />
        <button type="button" data-copy={field} data-copied={s.t.copied} hidden>
          {s.t.copy}
        </button>
      </div>
      <p>
        <a href={back}>{backText}</a>
      </p>
    </section>
  );
}

/** After making a share link. */
export function ShareCreatedView({ s, url, back }: { s: Speech; url: string; back: string }) {
  const t = shareText(s.locale);
  return (
    <LinkCreated
      s={s}
      note={t.shareCreated}
      label={t.shareLink}
      field="share-url"
      url={url}
      back={back}
      backText={t.backToMeeting}
    />
  );
}

/** What a share link shows: the meeting's date, length, digest and transcript, the audio if ticked; nothing of the account. */
export function SharedMeetingView(props: {
  s: Speech;
  recordedAt: string;
  durationSeconds: number | null;
  digest: DigestSection[];
  speakers: Speaker[];
  turns: Turn[];
  audio: string | null;
  /** The languages of the meeting's words (the bundle's transcript and digest). */
  language: { transcript: string | null; digest: string | null };
}) {
  const { s } = props;
  const t = shareText(s.locale);
  const m = meetingText(s.locale);
  return (
    <>
      <p class="hint">{t.sharedNote}</p>
      <dl class="facts">
        <dt>{m.date}</dt>
        <dd>{s.date(props.recordedAt)}</dd>
        {props.durationSeconds !== null ? (
          <>
            <dt>{m.duration}</dt>
            <dd>{clockOf(s, props.durationSeconds * 1000)}</dd>
          </>
        ) : null}
      </dl>
      {props.audio ? (
        <section class="card player" aria-labelledby="audio-h">
          <h2 id="audio-h">{m.audio}</h2>
          <audio id="player" controls preload="metadata" src={props.audio} aria-label={m.playerLabel} />
        </section>
      ) : null}
      <Digest m={m} sections={props.digest} language={props.language.digest} />
      <section class="card" aria-labelledby="transcript-h">
        <h2 id="transcript-h">{m.transcript}</h2>
        <ol class="turns">
          {props.turns.map((x) => (
            <li key={x.index} data-start-ms={x.startMs} data-end-ms={x.endMs} id={`turn-${x.index}`}>
              <div class="turn-head">
                <strong>
                  <bdi>{speakerName(props.speakers, x.speaker)}</bdi>
                </strong>
                <span class="time">{clockOf(s, x.startMs)}</span>
              </div>
              <TurnText text={x.text} language={props.language.transcript} />
            </li>
          ))}
        </ol>
      </section>
    </>
  );
}
