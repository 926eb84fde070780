import type { Speech } from '../i18n/messages';
import { meetingText } from '../i18n/meeting-messages';
import { Notice, PostForm, type Viewer } from './layout';
import { clockOf } from './meeting-parts';

export interface Voice {
  label: string;
  name: string | null;
  suggestion: string | null;
  clips: { startMs: number; endMs: number }[];
}

/**
 * The naming sheet: each voice with its clips (the meeting's audio with a media fragment
 * `#t=start,end`, so a clip plays its own seconds without script), a name field (the service's
 * suggestion, names already given; a <datalist> of the names the account already knows: memory's
 * people and earlier meetings' speakers), "these two voices are one person", "check again".
 */
export function NamingView(props: {
  s: Speech;
  base: string;
  viewer: Viewer;
  id: string;
  voices: Voice[];
  error: string | null;
  live: { status: string; label: string; url: string } | null;
  /** Names the account already knows, for the name fields' suggestions. */
  knownNames?: string[];
  /** naming.deadline as the status now reads it (moved later by this opening), or null (no end). */
  deadline?: string | null;
}) {
  const { s, base, viewer, id, voices, error, live, knownNames = [], deadline = null } = props;
  const m = meetingText(s.locale);
  const path = `${base}/recordings/${encodeURIComponent(id)}`;
  const sec = (ms: number) => (ms / 1000).toFixed(2);
  if (live) {
    return (
      <>
        <dl class="facts">
          <dt>{s.t.status}</dt>
          <dd data-status={live.status} data-live={live.url} aria-live="polite">
            {live.label}
          </dd>
        </dl>
        <p class="hint">{m.namingWait}</p>
      </>
    );
  }
  return (
    <>
      <Notice kind="error" text={error} />
      <p>{m.namingIntro}</p>
      {deadline ? (
        <p class="hint" data-deadline={deadline}>
          {m.f('namingDeadline', { time: s.date(deadline) })}
        </p>
      ) : null}
      {knownNames.length ? (
        <datalist id="known-names">
          {knownNames.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      ) : null}
      <PostForm viewer={viewer} action={`${path}/speakers`} class="stack naming">
        <input type="hidden" name="from" value="naming" />
        {voices.map((v) => (
          <fieldset key={v.label} class="card voice">
            <legend>{m.f('voice', { label: v.label })}</legend>
            <ul class="clips">
              {v.clips.map((c, i) => (
                <li key={i}>
                  <span>{clockOf(s, c.startMs)}</span>
                  <audio
                    controls
                    preload="none"
                    src={`${path}/audio#t=${sec(c.startMs)},${sec(c.endMs)}`}
                    aria-label={m.f('clip', { n: s.number(i + 1), label: v.label })}
                  />
                </li>
              ))}
            </ul>
            <label>
              {m.f('nameOf', { label: v.label })}
              <input
                type="text"
                name={`name.${v.label}`}
                maxLength={100}
                value={v.name ?? v.suggestion ?? ''}
                autocomplete="off"
                list={knownNames.length ? 'known-names' : undefined}
              />
            </label>
            {v.suggestion ? <p class="hint">{m.f('suggestion', { name: v.suggestion })}</p> : null}
          </fieldset>
        ))}
        <button type="submit">{m.saveNames}</button>
      </PostForm>
      {voices.length >= 2 ? (
        <PostForm viewer={viewer} action={`${path}/voices/merge`} class="stack card merge">
          <h2>{m.mergeTitle}</h2>
          <p class="hint">{m.mergeHint}</p>
          <label>
            {m.mergeFirst}
            <select name="into">
              {voices.map((v) => (
                <option key={v.label} value={v.label}>
                  {m.f('voice', { label: v.label })}
                </option>
              ))}
            </select>
          </label>
          <label>
            {m.mergeSecond}
            <select name="from">
              {voices.map((v, i) => (
                <option key={v.label} value={v.label} selected={i === 1}>
                  {m.f('voice', { label: v.label })}
                </option>
              ))}
            </select>
          </label>
          <button type="submit">{m.mergeButton}</button>
        </PostForm>
      ) : null}
      <PostForm viewer={viewer} action={`${path}/recheck`} class="stack">
        <button type="submit" class="danger">
          {m.checkAgainSheet}
        </button>
      </PostForm>
    </>
  );
}
