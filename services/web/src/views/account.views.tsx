import { NAMING_MODES } from '@mm/contract';
import { messageOf, type Speech } from '../i18n/messages';
import { Notice, PostForm, type Viewer } from './layout';
import { NewPasswordFields } from './auth.views';

type Props = { s: Speech; base: string; viewer: Viewer; notice?: string | null; error?: string | null };
const label = (s: Speech, key: string) => messageOf(s.t, key) ?? key;

export interface WalletData {
  balanceMinutes: number;
  heldMinutes: number;
  entries: { kind: string; creditKind: string | null; minutes: number; createdAt: string }[];
  /** The packs on sale here; empty when the operator adds minutes. */
  purchasePacks: number[];
}

/** A ledger line's name: a credit says where it came from (trial, grant, purchase). */
const entryLabel = (s: Speech, e: WalletData['entries'][number]) =>
  (e.kind === 'credit' && e.creditKind ? messageOf(s.t, `credit_${e.creditKind}`) : undefined) ??
  label(s, `kind_${e.kind}`);

/**
 * A ledger line's minutes as they move the balance: a credit adds (+), a charge spends (−), and a
 * hold or its release only sets minutes aside while a meeting is in progress (in brackets).
 */
const amountOf = (s: Speech, e: WalletData['entries'][number]) => {
  const n = s.number(e.minutes);
  if (e.kind === 'credit') return `+${n}`;
  if (e.kind === 'hold' || e.kind === 'release') return `(${n})`;
  return `\u2212${n}`;
};

/**
 * The wallet: balance, held minutes, the packs on sale and recent entries. `purchaseKey` names this
 * rendering of the buy form, so a form sent twice (a double click, a resend) buys once.
 */
export function WalletView({
  s,
  base,
  viewer,
  w,
  purchaseKey,
  notice,
}: Props & { w: WalletData; purchaseKey: string }) {
  return (
    <>
      <Notice kind="ok" text={notice ?? null} />
      <dl class="facts">
        <dt>{s.t.balance}</dt>
        <dd>{s.f('minutes', { n: s.number(w.balanceMinutes) })}</dd>
        <dt>{s.t.heldMinutes}</dt>
        <dd>{s.f('minutes', { n: s.number(w.heldMinutes) })}</dd>
      </dl>
      <section class="card" aria-labelledby="buy-h" id="buy">
        <h2 id="buy-h">{s.t.buyTitle}</h2>
        {w.purchasePacks.length === 0 ? (
          <p>{s.t.buyNone}</p>
        ) : (
          <PostForm viewer={viewer} action={`${base}/wallet/buy`} class="stack">
            <input type="hidden" name="purchaseKey" value={purchaseKey} />
            <fieldset>
              <legend>{s.t.buyPack}</legend>
              {w.purchasePacks.map((n, i) => (
                <div class="check" key={n}>
                  <input type="radio" id={`pack-${n}`} name="minutes" value={String(n)} checked={i === 0} />
                  <label for={`pack-${n}`}>{s.f('minutes', { n: s.number(n) })}</label>
                </div>
              ))}
            </fieldset>
            <p class="hint">{s.t.buyHint}</p>
            <button type="submit">{s.t.buyButton}</button>
          </PostForm>
        )}
      </section>
      <h2>{s.t.recentEntries}</h2>
      {w.entries.length === 0 ? <p>{s.t.noEntries}</p> : null}
      {w.entries.length ? (
        <table>
          <thead>
            <tr>
              <th scope="col">{s.t.entryKind}</th>
              <th scope="col">{s.t.entryMinutes}</th>
              <th scope="col">{s.t.entryWhen}</th>
            </tr>
          </thead>
          <tbody>
            {w.entries.map((e, i) => (
              <tr key={i}>
                <td>{entryLabel(s, e)}</td>
                <td>{amountOf(s, e)}</td>
                <td>{s.date(e.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {w.entries.some((e) => e.kind === 'hold') ? <p class="hint">{s.t.holdsNote}</p> : null}
    </>
  );
}

export interface SettingsData {
  speakerNamingMode: string;
  memoryLearningEnabled: boolean;
  summaryEmailEnabled: boolean;
  uiLocale: string;
  deleteAudioAfterDigest: boolean;
}

export function SettingsView({ s, base, viewer, notice, settings }: Props & { settings: SettingsData }) {
  return (
    <>
      <Notice kind="ok" text={notice ?? null} />
      <PostForm viewer={viewer} action={`${base}/settings`} class="card stack">
        <label>
          {s.t.namingMode}
          <select name="speakerNamingMode">
            {NAMING_MODES.map((m) => (
              <option key={m} value={m} selected={settings.speakerNamingMode === m}>
                {label(s, `naming${m}`)}
              </option>
            ))}
          </select>
        </label>
        <div class="check">
          <input
            type="checkbox"
            id="summary-email"
            name="summaryEmailEnabled"
            value="true"
            checked={settings.summaryEmailEnabled}
          />
          <label for="summary-email">{s.t.summaryEmail}</label>
        </div>
        <div class="check">
          <input
            type="checkbox"
            id="memory-learning"
            name="memoryLearningEnabled"
            value="true"
            checked={settings.memoryLearningEnabled}
          />
          <label for="memory-learning">{s.t.memoryLearning}</label>
        </div>
        <div class="check">
          <input
            type="checkbox"
            id="delete-audio"
            name="deleteAudioAfterDigest"
            value="true"
            checked={settings.deleteAudioAfterDigest}
            aria-describedby="delete-audio-hint"
          />
          <label for="delete-audio">{s.t.deleteAudio}</label>
        </div>
        <p class="hint" id="delete-audio-hint">
          {s.t.deleteAudioHint}
        </p>
        <label>
          {s.t.appLanguage}
          <select name="uiLocale">
            <option value="en" selected={settings.uiLocale === 'en'} lang="en">
              English
            </option>
            <option value="fa" selected={settings.uiLocale === 'fa'} lang="fa">
              فارسی
            </option>
          </select>
        </label>
        <button type="submit">{s.t.save}</button>
      </PostForm>
    </>
  );
}

export function KeytermsView({ s, base, viewer, notice, error, text }: Props & { text: string }) {
  return (
    <>
      <p id="keyterms-intro">{s.t.keytermsIntro}</p>
      <Notice kind="ok" text={notice ?? null} />
      <Notice kind="error" text={error ?? null} />
      <PostForm viewer={viewer} action={`${base}/keyterms`} class="card stack">
        <label>
          {s.t.keyterms}
          <textarea name="keyterms" rows={8} maxLength={6000} aria-describedby="keyterms-intro">
            {text}
          </textarea>
        </label>
        <button type="submit">{s.t.save}</button>
      </PostForm>
    </>
  );
}

export interface MemoryData {
  memoryEnabled: boolean;
  items: { id: string; category: string; text: string }[];
}

/** A note's first words for its heading's hidden part: at most 60 characters, cut at a space. */
function noteStart(text: string): string {
  if (text.length <= 60) return text;
  const cut = text.slice(0, 60);
  const space = cut.lastIndexOf(' ');
  return `${space > 30 ? cut.slice(0, space) : cut}…`;
}

export function MemoryView({ s, base, viewer, notice, error, m }: Props & { m: MemoryData }) {
  return (
    <>
      <p>{s.t.memoryIntro}</p>
      <Notice kind="ok" text={notice ?? null} />
      <Notice kind="error" text={error ?? null} />
      {!m.memoryEnabled ? <p>{s.t.memoryOff}</p> : null}
      {m.memoryEnabled && m.items.length === 0 ? <p>{s.t.noNotes}</p> : null}
      {m.items.map((item, i) => (
        // A group, not a landmark: ten notes are not ten regions of the page. The heading says the
        // note's category and, to a screen reader, its first words, so each note's Save and Delete
        // (described by it) say which note they act on.
        <div class="card" role="group" key={item.id} aria-labelledby={`note-${i}`}>
          <h2 id={`note-${i}`}>
            {label(s, `category_${item.category}`)}
            <span class="sr-only">: {noteStart(item.text)}</span>
          </h2>
          <PostForm viewer={viewer} action={`${base}/memory/${encodeURIComponent(item.id)}`} class="stack">
            <label>
              {s.t.note}
              <textarea name="text" rows={3} maxLength={1000}>
                {item.text}
              </textarea>
            </label>
            <button type="submit" aria-describedby={`note-${i}`}>
              {s.t.save}
            </button>
          </PostForm>
          <PostForm viewer={viewer} action={`${base}/memory/${encodeURIComponent(item.id)}/delete`}>
            <button type="submit" class="danger" aria-describedby={`note-${i}`}>
              {s.t.deleteNote}
            </button>
          </PostForm>
        </div>
      ))}
    </>
  );
}

export function ProfileView({
  s,
  base,
  viewer,
  notice,
  error,
  displayName,
  email,
}: Props & { displayName: string | null; email: string | null }) {
  return (
    <>
      <Notice kind="ok" text={notice ?? null} />
      <Notice kind="error" text={error ?? null} />
      <PostForm viewer={viewer} action={`${base}/profile`} class="card stack">
        <label>
          {s.t.displayName}
          <input type="text" name="displayName" maxLength={200} value={displayName ?? ''} autocomplete="name" />
        </label>
        <button type="submit">{s.t.save}</button>
      </PostForm>
      <section class="card" aria-labelledby="email-h">
        <h2 id="email-h">{s.t.emailTitle}</h2>
        <p>{email ? s.f('emailNow', { email }) : s.t.emailNone}</p>
        <PostForm viewer={viewer} action={`${base}/email`} class="stack">
          <label>
            {s.t.newEmail}
            <input type="email" name="email" autocomplete="email" required maxLength={320} dir="ltr" />
          </label>
          <label>
            {s.t.currentPassword}
            <input type="password" name="current" autocomplete="current-password" required maxLength={1000} />
          </label>
          <button type="submit">{s.t.changeEmail}</button>
        </PostForm>
      </section>
      <section class="card" aria-labelledby="password">
        <h2 id="password">{s.t.changePassword}</h2>
        <PostForm viewer={viewer} action={`${base}/password`} class="stack">
          <label>
            {s.t.currentPassword}
            <input type="password" name="current" autocomplete="current-password" required maxLength={1000} />
          </label>
          <NewPasswordFields s={s} />
          <button type="submit">{s.t.changePassword}</button>
        </PostForm>
      </section>
    </>
  );
}
