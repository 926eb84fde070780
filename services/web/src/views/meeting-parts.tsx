import type { TranscriptSegment } from '@mm/contract';
import type { Speech } from '../i18n/messages';
import type { MeetingMessages } from '../i18n/meeting-messages';

/** The pieces of a meeting every page that shows one draws from (meeting, Ask, share, naming, lists). */

export interface Speaker {
  label: string;
  name: string | null;
}
/** A turn of the transcript as the bundle gives it. */
export type Turn = Omit<TranscriptSegment, 'pausesMs'>;
export interface DigestSection {
  kind: string;
  title: string;
  text?: string;
  items?: (string | { text: string; owner?: string | null })[];
}

/** `m:ss` or `h:mm:ss` in the page's digits. */
export function clockOf(s: Speech, ms: number): string {
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const mm = Math.floor((total % 3600) / 60);
  const ss = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  const text = h > 0 ? `${h}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
  return text.replace(/\d/g, (d) => s.number(Number(d)));
}

export const speakerName = (speakers: Speaker[], label: string) =>
  speakers.find((x) => x.label === label)?.name ?? label;
/** Scripts written right to left, by their language codes. */
const RTL = new Set(['fa', 'ar', 'he', 'ur', 'ps', 'ckb', 'yi']);

/**
 * The lang and dir of a meeting's own words, which may be in another language than the page (an
 * English meeting in the Persian app): the transcript's or digest's language code as the bundle
 * gives it; unknown, the browser finds the direction from the text itself.
 */
export function contentLang(code: string | null | undefined): { lang?: string; dir: 'ltr' | 'rtl' | 'auto' } {
  const c = (code ?? '').trim();
  if (!/^[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*$/.test(c)) return { dir: 'auto' };
  const primary = c.split('-')[0]!.toLowerCase();
  return { lang: c, dir: RTL.has(primary) ? 'rtl' : 'ltr' };
}

/** A turn's words, with their language and direction (contentLang). */
export function TurnText({ text, language }: { text: string; language: string | null }) {
  return (
    <p class="turn-text" {...contentLang(language)}>
      {text}
    </p>
  );
}

export function Digest({
  m,
  sections,
  language = null,
}: {
  m: MeetingMessages;
  sections: DigestSection[];
  /** The digest's language (the bundle's), for its sections' lang and dir. */
  language?: string | null;
}) {
  const words = contentLang(language);
  // "None in this meeting." is the page's words, not the digest's: its own language and direction.
  const none = (
    <p class="hint" lang={m.locale} dir={m.locale === 'fa' ? 'rtl' : 'ltr'}>
      {m.noneSaid}
    </p>
  );
  return (
    <section class="card" aria-labelledby="digest-h">
      <h2 id="digest-h">{m.digest}</h2>
      {sections.map((x, i) => (
        <div key={i} class="section" data-kind={x.kind} lang={words.lang} dir={words.dir}>
          <h3>{x.title}</h3>
          {x.text !== undefined ? x.text ? <p>{x.text}</p> : none : null}
          {/* An empty list says so in words, not as a list of one dash. */}
          {x.items && x.items.length === 0 ? none : null}
          {x.items && x.items.length > 0 ? (
            <ul>
              {x.items.map((it, j) => (
                <li key={j}>{typeof it === 'string' ? it : `${it.text}${it.owner ? ` (${it.owner})` : ''}`}</li>
              ))}
            </ul>
          ) : null}
        </div>
      ))}
    </section>
  );
}
