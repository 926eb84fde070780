import type { Speech } from '../i18n/messages';
import { seriesText } from '../i18n/series-messages';
import { Notice, PostForm, type Viewer } from './layout';

/** The series list's form: a new series (name, how its meetings are titled). */
export function NewSeriesForm({
  s,
  base,
  viewer,
  error,
}: {
  s: Speech;
  base: string;
  viewer: Viewer;
  error: string | null;
}) {
  const t = seriesText(s.locale);
  return (
    <section class="card" aria-labelledby="new-series-h">
      <h2 id="new-series-h">{t.newSeries}</h2>
      <Notice kind="error" text={error} />
      <PostForm viewer={viewer} action={`${base}/series`} class="stack">
        <label>
          {t.seriesName}
          <input type="text" name="name" required maxLength={60} />
        </label>
        <label>
          {t.titleStyle}
          <select name="titleStyle">
            <option value="SESSION">{t.titleSession}</option>
            <option value="TOPIC">{t.titleTopic}</option>
          </select>
        </label>
        <button type="submit">{t.create}</button>
      </PostForm>
    </section>
  );
}

/** A series' keyterms (its owner's): one per line, and whether the account's apply too. */
export function SeriesKeyterms({
  s,
  viewer,
  action,
  keyterms,
  inherit,
  notice,
  error,
}: {
  s: Speech;
  viewer: Viewer;
  action: string;
  keyterms: string[];
  inherit: boolean;
  notice: string | null;
  error: string | null;
}) {
  const t = seriesText(s.locale);
  return (
    <section class="card" aria-labelledby="series-keyterms-h" id="keyterms">
      <h2 id="series-keyterms-h">{t.keyterms}</h2>
      <Notice kind="ok" text={notice} />
      <Notice kind="error" text={error} />
      <PostForm viewer={viewer} action={action} class="stack">
        <label>
          {t.keyterms}
          <span class="hint">{t.keytermsHint}</span>
          <textarea name="keyterms" rows={6} maxLength={6000}>
            {keyterms.join('\n')}
          </textarea>
        </label>
        <div class="check">
          <input type="checkbox" id="inherit" name="inherit" value="yes" checked={inherit} />
          <label for="inherit">{t.inherit}</label>
        </div>
        <button type="submit">{t.saveKeyterms}</button>
      </PostForm>
    </section>
  );
}
