import type { Speech } from '../i18n/messages';
import { meetingText } from '../i18n/meeting-messages';
import { normalizeForSearch } from '@mm/text';
import { clockOf } from './meeting-parts';
import { statusLabel } from './pages.views';
import { Notice } from './layout';
import { faDigits, RECORDING_KINDS } from '@mm/contract';
import { solarDay, solarDayInWords } from '../domain/day-input';
import type { UnfinishedMeeting } from '../services/in-progress';

/** What the live list compares: each unfinished meeting and its status (a change reloads the page). */
export function unfinishedSignature(items: UnfinishedMeeting[]): string {
  return items.map((x) => `${x.id}:${x.status}`).join(',');
}

/** Meetings in progress (and failed), followed live by the page's script through `live`. */
function Unfinished({ s, base, items, live }: { s: Speech; base: string; items: UnfinishedMeeting[]; live: string }) {
  const m = meetingText(s.locale);
  return (
    <section class="card" aria-labelledby="unfinished-h" data-live-list={live} data-sig={unfinishedSignature(items)}>
      <h2 id="unfinished-h">{m.unfinished}</h2>
      <p class="hint">{m.unfinishedNote}</p>
      {items.length === 0 ? <p>{m.nothingInProgress}</p> : null}
      <ul class="meetings">
        {items.map((x) => (
          <li key={x.id} data-status={x.status}>
            <a href={`${base}/recordings/${encodeURIComponent(x.id)}`}>
              <bdi>{x.title ?? s.t.untitled}</bdi>
            </a>
            {' · '}
            <span class="status">{statusLabel(s.t, x.status)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A meeting as the list and search routes give it (the contract's Recording list item, search's snippet). */
export interface ListedMeeting {
  id: string;
  /** The meeting's own title: shown beneath displayTitle where a series titles it by date (the two differ). */
  title?: string | null;
  displayTitle: string;
  kind: string;
  recordedAt: string;
  durationSeconds: number | null;
  series: { id: string; name: string } | null;
  snippet?: string | null;
  /** The app's search: where the snippet was said (ms), or null (it came from the digest or the title). */
  atMs?: number | null;
}
export interface ListedSeries {
  id: string;
  name: string;
  role: 'owner' | 'member';
  meetingCount: number;
}
export interface MeetingFilters {
  q: string;
  seriesId: string;
  kind: string;
  from: string;
  to: string;
}

/** The kinds a meeting can be (the contract's list), as the filters and forms offer them. */
export const KINDS = RECORDING_KINDS;

/**
 * A snippet with the words of the search marked: each word of the snippet (split at spaces) whose
 * normalised form holds a query word, as search matched it (Arabic letter forms, digits, marks).
 */
export function MarkedSnippet({ text, words }: { text: string; words: string[] }) {
  if (words.length === 0) return <bdi>{text}</bdi>;
  return (
    <bdi>
      {text
        .split(/(\s+)/)
        .map((part, i) =>
          part.trim() && words.some((w) => normalizeForSearch(part).includes(w)) ? <mark key={i}>{part}</mark> : part,
        )}
    </bdi>
  );
}

export function MeetingList({
  s,
  base,
  items,
  words = [],
  filtered = false,
}: {
  s: Speech;
  base: string;
  items: ListedMeeting[];
  words?: string[];
  /** A search or a filter chose these: an empty list says nothing matched, not that there are no meetings. */
  filtered?: boolean;
}) {
  const m = meetingText(s.locale);
  if (items.length === 0) return <p>{filtered ? m.noMatch : m.noMeetings}</p>;
  return (
    <ul class="meetings">
      {items.map((x) => (
        <li key={x.id} class="card">
          <a href={`${base}/recordings/${encodeURIComponent(x.id)}`}>
            <bdi>{x.displayTitle}</bdi>
          </a>
          {x.title && x.title !== x.displayTitle ? (
            <p class="subtitle">
              <bdi>{x.title}</bdi>
            </p>
          ) : null}
          <p class="hint">
            {s.date(x.recordedAt)}
            {x.durationSeconds !== null ? ` · ${clockOf(s, x.durationSeconds * 1000)}` : ''}
            {x.series ? ' · ' : ''}
            {x.series ? <bdi>{x.series.name}</bdi> : null}
          </p>
          {x.snippet && typeof x.atMs === 'number' ? (
            <p class="snippet">
              <a href={`${base}/recordings/${encodeURIComponent(x.id)}?at=${x.atMs}`}>
                <span class="at">{clockOf(s, x.atMs)}</span> <MarkedSnippet text={x.snippet} words={words} />
              </a>
            </p>
          ) : x.snippet ? (
            <p class="snippet">
              <MarkedSnippet text={x.snippet} words={words} />
            </p>
          ) : null}
        </li>
      ))}
    </ul>
  );
}

/** A year, a month and a day in any of the digits, - or / between (the server reads and checks the day). */
const DAY_PATTERN = '[0-9۰-۹٠-٩]{4}[\\-\\/][0-9۰-۹٠-٩]{1,2}[\\-\\/][0-9۰-۹٠-٩]{1,2}';

/**
 * A date filter. English: the browser's date field. Persian: the browser's field would speak
 * Gregorian mm/dd/yyyy, so a text field taking year-month-day in Persian or Latin digits, Solar
 * Hijri or Gregorian, shown back in the Solar Hijri calendar, the format and the chosen day beside it.
 */
function DayField({ s, name, label, value }: { s: Speech; name: string; label: string; value: string }) {
  if (s.locale !== 'fa')
    return (
      <label>
        {label}
        <input type="date" name={name} value={value} />
      </label>
    );
  const m = meetingText(s.locale);
  const id = `day-${name}`;
  return (
    <div class="day-field">
      <label for={id}>{label}</label>
      <input
        type="text"
        id={id}
        name={name}
        inputMode="numeric"
        dir="ltr"
        autocomplete="off"
        maxLength={20}
        pattern={DAY_PATTERN}
        placeholder={faDigits('1403-01-15')}
        value={value ? faDigits(solarDay(value)) : ''}
        aria-describedby={`${id}-hint`}
      />
      <small id={`${id}-hint`} class="hint">
        {value ? m.f('dayChosen', { day: solarDayInWords(value) }) : m.dayFormat}
      </small>
    </div>
  );
}

/** The meetings page: filters (series, kind, dates) and search across meetings, then the list. */
export function MeetingsView({
  s,
  base,
  f,
  series,
  items,
  next,
  unfinished,
  refused = null,
  words = [],
}: {
  s: Speech;
  base: string;
  f: MeetingFilters;
  series: ListedSeries[];
  items: ListedMeeting[];
  next: string | null;
  unfinished: UnfinishedMeeting[] | null;
  /** The service's code when it refused these filters (the list is then empty for that reason). */
  refused?: string | null;
  /** The search's words, normalised: marked in the snippets. */
  words?: string[];
}) {
  const m = meetingText(s.locale);
  return (
    <>
      <form method="get" action={`${base}/meetings`} class="filters" role="search" aria-label={m.searchLabel}>
        <label>
          {m.searchLabel}
          <input type="search" name="q" maxLength={200} value={f.q} />
        </label>
        <label>
          {m.filterSeries}
          <select name="seriesId">
            <option value="">{m.filterAny}</option>
            {series.map((x) => (
              <option key={x.id} value={x.id} selected={f.seriesId === x.id}>
                {x.name}
              </option>
            ))}
          </select>
        </label>
        <label>
          {m.filterKind}
          <select name="kind">
            <option value="">{m.filterAny}</option>
            {KINDS.map((k) => (
              <option key={k} value={k} selected={f.kind === k}>
                {m[`kind_${k}`]}
              </option>
            ))}
          </select>
        </label>
        <DayField s={s} name="from" label={m.filterFrom} value={f.from} />
        <DayField s={s} name="to" label={m.filterTo} value={f.to} />
        <button type="submit">{m.filter}</button>
      </form>
      <Notice
        kind="error"
        text={
          refused === null
            ? null
            : refused === 'NOT_FOUND'
              ? m.filterRefusedSeries
              : m.filterRefused.replace('{code}', refused.replace(/[^A-Z_]/g, '').slice(0, 40))
        }
      />
      {unfinished ? (
        <Unfinished
          s={s}
          base={base}
          items={unfinished}
          live={`${base}/meetings/live.json${f.seriesId ? `?seriesId=${encodeURIComponent(f.seriesId)}` : ''}`}
        />
      ) : null}
      {unfinished ? <h2>{m.finished}</h2> : null}
      <MeetingList s={s} base={base} items={items} words={words} filtered={Object.values(f).some((v) => v !== '')} />
      {next ? (
        <p>
          <a href={next}>{m.more}</a>
        </p>
      ) : null}
    </>
  );
}

export function SeriesListView({ s, base, items }: { s: Speech; base: string; items: ListedSeries[] }) {
  const m = meetingText(s.locale);
  if (items.length === 0) return <p>{m.noSeriesYet}</p>;
  return (
    <table>
      <thead>
        <tr>
          <th scope="col">{m.navSeries}</th>
          <th scope="col">{m.role}</th>
          <th scope="col">{s.t.meetingCount}</th>
        </tr>
      </thead>
      <tbody>
        {items.map((x) => (
          <tr key={x.id}>
            <td>
              <a href={`${base}/series/${encodeURIComponent(x.id)}`}>
                <bdi>{x.name}</bdi>
              </a>
            </td>
            <td>{x.role === 'owner' ? m.owned : m.joined}</td>
            <td>{s.number(x.meetingCount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function SeriesPageView({
  s,
  base,
  series,
  items,
}: {
  s: Speech;
  base: string;
  series: ListedSeries;
  items: ListedMeeting[];
}) {
  const m = meetingText(s.locale);
  return (
    <>
      <dl class="facts">
        <dt>{m.role}</dt>
        <dd>{series.role === 'owner' ? m.owned : m.joined}</dd>
        <dt>{s.t.meetingCount}</dt>
        <dd>{s.number(series.meetingCount)}</dd>
      </dl>
      <h2>{m.seriesMeetings}</h2>
      <MeetingList s={s} base={base} items={items} />
    </>
  );
}
