/**
 * The summary email's words: subject, plain and HTML body, attachment name, and the digest laid
 * out as blocks (shared by the body and the PDF). No I/O.
 */
import { sectionTexts, type SectionLike } from './digest-notes';

/** What the email and the PDF show of a first digest. */
export interface DigestForEmail {
  recordingId: string;
  displayTitle: string;
  language: string;
  sections: readonly SectionLike[];
  speakers: readonly { name: string | null }[];
  recordedAt: string;
}

/** One section as it is read: a heading, a paragraph and/or bullet lines. */
export interface DigestBlock {
  kind: string;
  heading: string;
  text: string | null;
  items: string[];
}

type Locale = 'en' | 'fa';

const WORDS: Record<
  Locale,
  { subject: string; none: string; speakers: string; attached: string; open: string; noPdf: string }
> = {
  en: {
    subject: 'Meeting notes',
    none: 'None noted.',
    speakers: 'Speakers',
    attached: 'The full digest is attached as a PDF.',
    open: 'Open the meeting',
    noPdf: 'The digest could not be attached as a PDF; it is written out above.',
  },
  fa: {
    subject: 'یادداشت جلسه',
    none: 'موردی ثبت نشد.',
    speakers: 'گویندگان',
    attached: 'متن کامل خلاصه به صورت PDF پیوست شده است.',
    open: 'دیدن جلسه',
    noPdf: 'خلاصه را نشد به صورت PDF پیوست کرد؛ متن آن در بالا آمده است.',
  },
};

export function localeOf(language: string): Locale {
  return language === 'fa' ? 'fa' : 'en';
}

/** Every whitespace run becomes one space: titles and names are written on one line. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The digest's sections in reading order; unknown kinds show whatever text or items they have. */
export function digestBlocks(sections: readonly SectionLike[], language: string): DigestBlock[] {
  const none = WORDS[localeOf(language)].none;
  return sections.map((s) => {
    const text = typeof s.text === 'string' ? s.text.trim() : null;
    const items = Array.isArray(s.items)
      ? s.items
          .map((item) => {
            if (typeof item === 'string') return oneLine(item);
            const { text: t, owner } = (item ?? {}) as { text?: unknown; owner?: unknown };
            if (typeof t !== 'string') return '';
            return typeof owner === 'string' && owner.trim() ? `${oneLine(t)} — ${oneLine(owner)}` : oneLine(t);
          })
          .filter(Boolean)
      : [];
    const empty = !text && items.length === 0;
    return {
      kind: s.kind,
      heading: oneLine(typeof s.title === 'string' ? s.title : s.kind),
      text: empty ? none : text || null,
      items,
    };
  });
}

/** The summary section's text ('' when the digest has none). */
export function summaryText(sections: readonly SectionLike[]): string {
  return sectionTexts(sections.filter((s) => s.kind === 'summary')).join(' ');
}

/** When the meeting happened, in the digest's language and calendar (UTC: the owner's zone is not known). */
export function meetingDate(recordedAt: string, language: string): string {
  const date = new Date(recordedAt);
  const locale = localeOf(language) === 'fa' ? 'fa-IR-u-ca-persian' : 'en-GB';
  return `${new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' }).format(date)} UTC`;
}

export function speakerLine(d: Pick<DigestForEmail, 'speakers' | 'language'>): string | null {
  const names = [...new Set(d.speakers.map((s) => oneLine(s.name ?? '')).filter(Boolean))];
  return names.length
    ? `${WORDS[localeOf(d.language)].speakers}: ${names.join(localeOf(d.language) === 'fa' ? '، ' : ', ')}`
    : null;
}

/** The subject, in the owner's app language. */
export function emailSubject(d: Pick<DigestForEmail, 'displayTitle'>, uiLocale: string): string {
  return `${WORDS[localeOf(uiLocale)].subject}: ${oneLine(d.displayTitle)}`;
}

/** A file name mail clients accept: the title and day, no path or reserved characters, bounded. */
export function attachmentName(d: Pick<DigestForEmail, 'displayTitle' | 'recordedAt'>): string {
  const base =
    oneLine(d.displayTitle.replace(/[\\/:*?"<>|\p{Cc}]+/gu, ' '))
      .slice(0, 80)
      .trim() || 'meeting';
  return `${base} ${d.recordedAt.slice(0, 10)}.pdf`;
}

/** The plain-text body: title, when, who, every section, then where the meeting is. */
export function emailText(d: DigestForEmail, opts: { url: string; withPdf: boolean }): string {
  const w = WORDS[localeOf(d.language)];
  const lines = [oneLine(d.displayTitle), meetingDate(d.recordedAt, d.language)];
  const who = speakerLine(d);
  if (who) lines.push(who);
  for (const b of digestBlocks(d.sections, d.language)) {
    lines.push('', b.heading);
    if (b.text) lines.push(b.text);
    for (const item of b.items) lines.push(`- ${item}`);
  }
  lines.push('', opts.withPdf ? w.attached : w.noPdf, `${w.open}: ${opts.url}`);
  return `${lines.join('\n')}\n`;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The HTML body: the same content, right-to-left for a Persian digest. */
export function emailHtml(d: DigestForEmail, opts: { url: string; withPdf: boolean }): string {
  const w = WORDS[localeOf(d.language)];
  const dir = localeOf(d.language) === 'fa' ? 'rtl' : 'ltr';
  const who = speakerLine(d);
  const parts = [
    `<h1>${escapeHtml(oneLine(d.displayTitle))}</h1>`,
    `<p>${escapeHtml(meetingDate(d.recordedAt, d.language))}${who ? `<br>${escapeHtml(who)}` : ''}</p>`,
  ];
  for (const b of digestBlocks(d.sections, d.language)) {
    parts.push(`<h2>${escapeHtml(b.heading)}</h2>`);
    if (b.text) parts.push(`<p>${escapeHtml(b.text)}</p>`);
    if (b.items.length) parts.push(`<ul>${b.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`);
  }
  parts.push(
    `<p>${escapeHtml(opts.withPdf ? w.attached : w.noPdf)} <a href="${escapeHtml(opts.url)}">${escapeHtml(w.open)}</a></p>`,
  );
  return `<!doctype html><html lang="${localeOf(d.language)}" dir="${dir}"><body>${parts.join('\n')}</body></html>`;
}
