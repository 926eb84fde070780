import type { Speech } from '../i18n/messages';
import { meetingText, type MeetingMessages } from '../i18n/meeting-messages';
import { ConfirmedDelete, Notice, PostForm, type Viewer } from './layout';
import { statusLabel, type MeetingStatus } from './pages.views';
import { askText } from '../i18n/ask-messages';
import { AskTab, type AskPanel } from './ask.view';
import { ShareSection } from './share.view';
import type { ShareLink } from '../db/share-link.repository';
import { clockOf, Digest, speakerName, TurnText, type DigestSection, type Speaker, type Turn } from './meeting-parts';

export { clockOf, Digest, speakerName, type DigestSection, type Speaker, type Turn };

/** Everything the meeting page shows, gathered from the owning service's answers. */
export interface MeetingPage {
  status: MeetingStatus & { error?: { code: string } | null };
  displayTitle: string | null;
  /** The meeting's own title where a series titles it by its date (the bundle's subtitle), else null. */
  subtitle: string | null;
  recordedAt: string | null;
  durationSeconds: number | null;
  speakers: Speaker[];
  turns: Turn[];
  digest: DigestSection[] | null;
  /** The languages of the meeting's own words (the bundle's), for their lang and dir; null: not known yet. */
  language: { transcript: string | null; digest: string | null };
  /** The owner sees actions and audio; a member of the meeting's series reads only. */
  owner: boolean;
  /** The meeting still has its audio (false once deleted after its digest, as the account's setting says). */
  audioKept: boolean;
  series: { id: string; name: string } | null;
  /** The owner's series, to move the meeting into one. */
  ownedSeries: { id: string; name: string }[];
  notice: string | null;
  error: string | null;
  /** Which tab is shown (READY meetings have two: the meeting and Ask); the Ask tab's content. */
  tab: 'meeting' | 'ask';
  ask: AskPanel | null;
  /** The owner's share links of a ready meeting (null: no share section). */
  shares: ShareLink[] | null;
  /** "Email the summary" of a ready meeting: to oneself, and to the series' list when the viewer owns the series. */
  email: { seriesName: string | null } | null;
}

/** "Email the summary": to the viewer's own address, or to the series' email list (its owner only). */
/** Why a meeting failed, in words (the contract's four codes), else the code itself. */
function failedText(m: MeetingMessages, code: string): string {
  const key = `failed_${code}` as keyof MeetingMessages;
  const words = /^[A-Z_]+$/.test(code) ? m[key] : undefined;
  return typeof words === 'string' ? words : m.f('failedNote', { code });
}

export function EmailSummary({
  m,
  viewer,
  action,
  seriesName,
}: {
  m: MeetingMessages;
  viewer: Viewer;
  action: string;
  seriesName: string | null;
}) {
  return (
    <section class="card" aria-labelledby="email-h">
      <h2 id="email-h">{m.emailSummary}</h2>
      <PostForm viewer={viewer} action={`${action}/email-summary`} class="stack">
        <p class="hint">{m.emailHint}</p>
        <label>
          {m.emailTo}
          <select name="to">
            <option value="me">{m.emailToMe}</option>
            {seriesName !== null ? <option value="series">{m.f('emailToSeries', { name: seriesName })}</option> : null}
          </select>
        </label>
        <button type="submit">{m.emailSend}</button>
      </PostForm>
    </section>
  );
}

export const FINAL = ['READY', 'FAILED'];

function Transcript({
  s,
  m,
  p,
  viewer,
  action,
  audio,
}: {
  s: Speech;
  m: MeetingMessages;
  p: MeetingPage;
  viewer: Viewer;
  action: string;
  audio: boolean;
}) {
  const editable = p.owner && p.status.status === 'READY';
  return (
    <section class="card" aria-labelledby="transcript-h">
      <h2 id="transcript-h">{m.transcript}</h2>
      <ol class="turns">
        {p.turns.map((t) => (
          <li key={t.index} data-start-ms={t.startMs} data-end-ms={t.endMs} id={`turn-${t.index}`}>
            <div class="turn-head">
              <strong>
                <bdi>{speakerName(p.speakers, t.speaker)}</bdi>
              </strong>
              {audio ? (
                <button
                  type="button"
                  class="link seek"
                  data-seek={t.startMs}
                  hidden
                  aria-label={m.f('seekTo', { time: clockOf(s, t.startMs) })}
                >
                  {clockOf(s, t.startMs)}
                </button>
              ) : null}
              <span class={audio ? 'time noscript-time' : 'time'}>{clockOf(s, t.startMs)}</span>
            </div>
            <TurnText text={t.text} language={p.language.transcript} />
            {editable ? (
              <details>
                <summary>{m.edit}</summary>
                <PostForm viewer={viewer} action={`${action}/segments/${t.index}`} class="stack">
                  <label>
                    {m.editTurn}
                    <textarea name="text" required maxLength={5000} rows={3}>
                      {t.text}
                    </textarea>
                  </label>
                  <button type="submit">{m.save}</button>
                </PostForm>
              </details>
            ) : null}
          </li>
        ))}
      </ol>
    </section>
  );
}

function OwnerActions({
  m,
  p,
  viewer,
  action,
}: {
  m: MeetingMessages;
  p: MeetingPage;
  viewer: Viewer;
  action: string;
}) {
  const ready = p.status.status === 'READY';
  return (
    <section class="card" aria-labelledby="actions-h">
      <h2 id="actions-h">{m.actions}</h2>
      <PostForm viewer={viewer} action={`${action}/title`} class="stack">
        <label>
          {m.meetingName}
          <input type="text" name="title" maxLength={200} value={p.status.title ?? ''} />
        </label>
        <button type="submit">{m.rename}</button>
      </PostForm>
      {ready && p.speakers.length > 0 ? (
        <PostForm viewer={viewer} action={`${action}/speakers`} class="stack">
          <fieldset class="stack">
            <legend>{m.renameSpeakers}</legend>
            {p.speakers.map((x) => (
              <label key={x.label}>
                {m.f('nameOf', { label: x.label })}
                <input type="text" name={`name.${x.label}`} maxLength={100} value={x.name ?? ''} />
              </label>
            ))}
          </fieldset>
          <button type="submit">{m.save}</button>
        </PostForm>
      ) : null}
      <PostForm viewer={viewer} action={`${action}/series`} class="stack">
        <label>
          {m.moveSeries}
          <select name="seriesId">
            <option value="" selected={!p.series}>
              {m.noSeries}
            </option>
            {p.ownedSeries.map((x) => (
              <option key={x.id} value={x.id} selected={p.series?.id === x.id}>
                {x.name}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{m.move}</button>
      </PostForm>
      {ready ? (
        <PostForm viewer={viewer} action={`${action}/regenerate`} class="stack">
          <p class="hint">{m.regenerateHint}</p>
          <button type="submit">{m.regenerate}</button>
        </PostForm>
      ) : null}
      {p.audioKept ? (
        <PostForm viewer={viewer} action={`${action}/recheck`} class="stack">
          <p class="hint">{m.checkAgainHint}</p>
          <button type="submit">{m.checkAgain}</button>
        </PostForm>
      ) : (
        <p class="hint">{m.audioDeleted}</p>
      )}
      <ConfirmedDelete
        viewer={viewer}
        action={`${action}/delete`}
        field="confirm-delete"
        hint={m.deleteHint}
        confirm={m.deleteConfirm}
        button={m.deleteMeeting}
      />
    </section>
  );
}

/**
 * A meeting's (or, with `first`, a series') two views, as links (each a page of its own, usable
 * without script). `first` names a series' first view; the nav is then the series' views.
 */
export function Tabs({ s, path, tab, first }: { s: Speech; path: string; tab: MeetingPage['tab']; first?: string }) {
  const a = askText(s.locale);
  return (
    <nav class="tabs" aria-label={first === undefined ? a.tabs : a.seriesTabs}>
      <a href={path} aria-current={tab === 'meeting' ? 'page' : undefined}>
        {first ?? a.tabMeeting}
      </a>
      <a href={`${path}?tab=ask`} aria-current={tab === 'ask' ? 'page' : undefined}>
        {a.tabAsk}
      </a>
    </nav>
  );
}

export function MeetingPageView({ s, base, viewer, p }: { s: Speech; base: string; viewer: Viewer; p: MeetingPage }) {
  const m = meetingText(s.locale);
  const path = `${base}/recordings/${encodeURIComponent(p.status.id)}`;
  const live = !FINAL.includes(p.status.status);
  const audio = p.owner && p.audioKept;
  return (
    <>
      {p.subtitle ? (
        <p class="subtitle">
          <bdi>{p.subtitle}</bdi>
        </p>
      ) : null}
      <Notice kind="ok" text={p.notice} />
      <Notice kind="error" text={p.error} />
      <dl class="facts">
        {p.recordedAt ? (
          <>
            <dt>{m.date}</dt>
            <dd>{s.date(p.recordedAt)}</dd>
          </>
        ) : null}
        {p.durationSeconds !== null ? (
          <>
            <dt>{m.duration}</dt>
            <dd>{clockOf(s, p.durationSeconds * 1000)}</dd>
          </>
        ) : null}
        <dt>{s.t.status}</dt>
        <dd data-status={p.status.status} data-live={live ? `${path}/status.json` : undefined} aria-live="polite">
          {statusLabel(s.t, p.status.status)}
        </dd>
        {p.series ? (
          <>
            <dt>{m.moveSeries}</dt>
            <dd>
              <a href={`${base}/series/${encodeURIComponent(p.series.id)}`}>
                <bdi>{p.series.name}</bdi>
              </a>
            </dd>
          </>
        ) : null}
        {p.speakers.length > 0 ? (
          <>
            <dt>{m.speakers}</dt>
            <dd>
              {p.speakers.map((x, i) => (
                <span key={x.label}>
                  {i > 0 ? (s.dir === 'rtl' ? '، ' : ', ') : null}
                  <bdi>{x.name ?? x.label}</bdi>
                </span>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
      {live ? <p class="hint">{m.liveNote}</p> : null}
      {p.status.status === 'FAILED' && p.status.error ? <p>{failedText(m, p.status.error.code)}</p> : null}
      {p.owner && p.status.status === 'NAMING' ? (
        <p>
          <a class="button" href={`${path}/naming`}>
            {m.namingOpen}
          </a>
        </p>
      ) : null}
      {p.status.status === 'READY' ? (
        <p class="downloads">
          <span>{m.download}: </span>
          <a href={`${path}/bundle.md`} download>
            {m.downloadMarkdown}
          </a>
          <a href={`${path}/bundle.json`} download>
            {m.downloadJson}
          </a>
        </p>
      ) : null}
      {p.status.status === 'READY' ? <Tabs s={s} path={path} tab={p.tab} /> : null}
      {audio ? (
        <section class="card player" aria-labelledby="audio-h">
          <h2 id="audio-h">{m.audio}</h2>
          <audio id="player" controls preload="metadata" src={`${path}/audio`} aria-label={m.playerLabel} />
        </section>
      ) : null}
      {p.tab === 'ask' && p.ask ? (
        <AskTab s={s} a={askText(s.locale)} viewer={viewer} p={p.ask} series={false} />
      ) : null}
      {p.tab === 'meeting' && p.digest ? <Digest m={m} sections={p.digest} language={p.language.digest} /> : null}
      {p.tab === 'meeting' && p.turns.length > 0 ? (
        <Transcript s={s} m={m} p={p} viewer={viewer} action={path} audio={audio} />
      ) : null}
      {p.tab === 'meeting' && p.email ? (
        <EmailSummary m={m} viewer={viewer} action={path} seriesName={p.email.seriesName} />
      ) : null}
      {p.tab === 'meeting' && p.shares ? (
        <ShareSection s={s} viewer={viewer} action={path} links={p.shares} audioKept={p.audioKept} />
      ) : null}
      {p.tab === 'meeting' && p.owner ? <OwnerActions m={m} p={p} viewer={viewer} action={path} /> : null}
    </>
  );
}

/** After a delete: the way back, which reveals nothing of the meeting (restore answers 404 to anyone but its owner). */
export function DeletedView({ s, base, viewer, id }: { s: Speech; base: string; viewer: Viewer; id: string }) {
  const m = meetingText(s.locale);
  return (
    <>
      <p>{m.deletedNote}</p>
      <PostForm viewer={viewer} action={`${base}/recordings/${encodeURIComponent(id)}/restore`}>
        <button type="submit">{m.restore}</button>
      </PostForm>
      <p>
        <a href={`${base}/trash`}>{m.trashLink}</a>
      </p>
    </>
  );
}

/** One deleted meeting of the trash (appListTrash). */
export interface TrashItem {
  id: string;
  title: string | null;
  status: string;
  recordedAt: string;
  deletedAt: string;
  purgeAt: string;
}

/** The trash: the owner's deleted meetings, when each goes for good, a restore button each. */
export function TrashView({
  s,
  base,
  viewer,
  days,
  items,
}: {
  s: Speech;
  base: string;
  viewer: Viewer;
  days: number;
  items: TrashItem[];
}) {
  const m = meetingText(s.locale);
  return (
    <>
      <p>{m.f('trashNote', { days: s.number(days) })}</p>
      {items.length === 0 ? (
        <p>{m.trashEmpty}</p>
      ) : (
        <ul class="meetings trash">
          {items.map((x) => (
            <li key={x.id} class="card">
              <h2 id={`trash-${x.id}`}>
                <bdi>{x.title ?? m.untitledMeeting}</bdi>
              </h2>
              <p class="hint">
                {s.date(x.recordedAt)} · {statusLabel(s.t, x.status)}
              </p>
              <p class="hint">
                {m.f('trashDeletedAt', { date: s.date(x.deletedAt) })} ·{' '}
                {m.f('trashGoneAt', { date: s.date(x.purgeAt) })}
              </p>
              <PostForm
                viewer={viewer}
                action={`${base}/recordings/${encodeURIComponent(x.id)}/restore`}
                label={`${m.restore}: ${x.title ?? m.untitledMeeting}`}
              >
                <button type="submit" aria-describedby={`trash-${x.id}`}>
                  {m.restore}
                </button>
              </PostForm>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
