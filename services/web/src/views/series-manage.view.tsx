import { DATE_CALENDARS, OUTPUT_LANGUAGES, RECORDING_KINDS } from '@mm/contract';
import type { Speech } from '../i18n/messages';
import { meetingText } from '../i18n/meeting-messages';
import { uploadText } from '../i18n/upload-messages';
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

/** What the settings form shows of a series (getSeries' answer). */
export interface SeriesSettingsValues {
  name: string;
  defaultKind: string;
  defaultOutputLanguage: string;
  titleStyle: string;
  dateCalendar: string;
}

/** A series' settings (its owner's): the name, the upload form's defaults, and how its meetings are titled. */
export function SeriesSettings({
  s,
  viewer,
  action,
  values,
  error,
}: {
  s: Speech;
  viewer: Viewer;
  action: string;
  values: SeriesSettingsValues;
  error: string | null;
}) {
  const t = seriesText(s.locale);
  const kinds = meetingText(s.locale);
  const languages = uploadText(s.locale);
  return (
    <section class="card" aria-labelledby="series-settings-h" id="settings">
      <h2 id="series-settings-h">{t.settings}</h2>
      <Notice kind="error" text={error} />
      <PostForm viewer={viewer} action={action} class="stack">
        <label>
          {t.seriesName}
          <input type="text" name="name" required maxLength={60} value={values.name} />
        </label>
        <p class="hint">{t.settingsHint}</p>
        <label>
          {t.defaultKind}
          <select name="defaultKind">
            {RECORDING_KINDS.map((k) => (
              <option key={k} value={k} selected={values.defaultKind === k}>
                {kinds[`kind_${k}`]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.defaultLanguage}
          <select name="defaultOutputLanguage">
            {OUTPUT_LANGUAGES.map((l) => (
              <option key={l} value={l} selected={values.defaultOutputLanguage === l}>
                {languages[`outputLanguage_${l}`]}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t.titleStyle}
          <select name="titleStyle">
            <option value="SESSION" selected={values.titleStyle === 'SESSION'}>
              {t.titleSession}
            </option>
            <option value="TOPIC" selected={values.titleStyle === 'TOPIC'}>
              {t.titleTopic}
            </option>
          </select>
        </label>
        <label>
          {t.dateCalendar}
          <select name="dateCalendar">
            {DATE_CALENDARS.map((c) => (
              <option key={c} value={c} selected={values.dateCalendar === c}>
                {t[`calendar_${c}`]}
              </option>
            ))}
          </select>
        </label>
        <button type="submit">{t.saveSettings}</button>
      </PostForm>
    </section>
  );
}
