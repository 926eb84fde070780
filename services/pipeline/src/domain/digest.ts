/**
 * The digest document: its shape, the per-kind templates (which sections, in reading order),
 * section titles in English and Persian, Markdown rendering, and the extractive builder.
 * Any engine's output goes through `assembleDigest`, so every digest has the same shape.
 */
import type { RecordingKind } from '@mm/contract';
import {
  actionOwner,
  distinctSentences,
  isActionItem,
  isDecision,
  pickSentences,
  questionSentences,
  scoreSentences,
  type Sentence,
  type SourceSegment,
  summaryLength,
  titleTerms,
} from './digest-extract';
import { FIRST_NAMES } from './first-names';
import { isQuestion, type TextLanguage } from './text-units';

export { stats, type MeetingStats, type SpeakerStats } from './meeting-stats';

export type DigestKind = RecordingKind;
export type DigestLanguage = TextLanguage;
export type DigestSegment = SourceSegment;

export interface DigestInput {
  kind: DigestKind;
  language: DigestLanguage;
  segments: DigestSegment[];
  /** The owner's memory notes ("Sara leads the mobile team"): names and terms that matter. */
  memory?: string[];
}

export interface ActionItem {
  text: string;
  owner: string | null;
}

export type SectionKind = 'summary' | 'decision_list' | 'action_item_list' | 'key_point_list' | 'question_list';

export type DigestSection =
  | { kind: 'summary'; title: string; text: string }
  | { kind: 'decision_list'; title: string; items: string[] }
  | { kind: 'action_item_list'; title: string; items: ActionItem[] }
  | { kind: 'key_point_list' | 'question_list'; title: string; items: string[] };

export interface Digest {
  type: DigestKind;
  language: DigestLanguage;
  title: string;
  sections: DigestSection[];
  markdown: string;
}

/** Which sections each kind of recording gets, in reading order. */
export const DIGEST_TEMPLATES: Readonly<Record<DigestKind, readonly SectionKind[]>> = {
  MEETING: ['summary', 'decision_list', 'action_item_list'],
  LECTURE: ['summary', 'key_point_list', 'question_list'],
  INTERVIEW: ['summary', 'question_list', 'key_point_list'],
  VOICE_MEMO: ['summary', 'action_item_list'],
  CALL: ['summary', 'decision_list', 'action_item_list'],
};

export const SECTION_TITLES: Readonly<Record<DigestLanguage, Record<SectionKind, string>>> = {
  en: {
    summary: 'Summary',
    decision_list: 'Decisions',
    action_item_list: 'Action items',
    key_point_list: 'Key points',
    question_list: 'Questions',
  },
  fa: {
    summary: 'خلاصه',
    decision_list: 'تصمیم‌ها',
    action_item_list: 'کارهای پیگیری',
    key_point_list: 'نکته‌های کلیدی',
    question_list: 'پرسش‌ها',
  },
};

const KIND_NAMES: Readonly<Record<DigestLanguage, Record<DigestKind, string>>> = {
  en: { MEETING: 'Meeting', LECTURE: 'Lecture', INTERVIEW: 'Interview', VOICE_MEMO: 'Voice memo', CALL: 'Call' },
  fa: { MEETING: 'جلسه', LECTURE: 'درس‌گفتار', INTERVIEW: 'مصاحبه', VOICE_MEMO: 'یادداشت صوتی', CALL: 'تماس' },
};

// A digest is read at a glance; past a dozen lines a list stops being a summary.
const MAX_LIST_ITEMS = 12;

const NONE_NOTED: Readonly<Record<DigestLanguage, string>> = { en: 'None noted.', fa: 'موردی ثبت نشد.' };

/** Content of each section, before titles and template order are applied. */
export interface SectionContent {
  summary: string;
  decision_list: string[];
  action_item_list: ActionItem[];
  key_point_list: string[];
  question_list: string[];
}

/** Builds the extractive digest: every sentence in it is a sentence of the transcript. */
export function buildExtractiveDigest(input: DigestInput): Digest {
  const { language, kind } = input;
  const sentences = scoreSentences(input.segments, language, input.memory ?? []);
  const names = knownNames(input);
  const summary = pickSentences(sentences, summaryLength(sentences.length));
  const taken = new Set(summary.map((s) => s.order));
  const decisions = distinctSentences(
    sentences.filter((s) => isDecision(s.text, language)),
    MAX_LIST_ITEMS,
  );
  const actions = distinctSentences(
    sentences.filter((s) => isActionItem(s.text, language, names)),
    MAX_LIST_ITEMS,
  );
  const questions = questionSentences(sentences, language);
  const keyPoints = pickSentences(
    sentences.filter((s) => !questions.includes(s)),
    Math.min(7, Math.max(3, Math.round(sentences.length / 8))),
    taken,
  );
  const content: SectionContent = {
    summary: joinSentences(summary, language),
    decision_list: decisions.map((s) => s.text),
    action_item_list: actions.map((s) => ({ text: s.text, owner: actionOwner(s, names, language) })),
    key_point_list: keyPoints.map((s) => s.text),
    question_list: questions.map((s) => s.text),
  };
  return assembleDigest(kind, language, suggestTitle(sentences, kind, language), content);
}

/** Puts section content into the kind's template, titles it in the language and renders Markdown. */
export function assembleDigest(
  kind: DigestKind,
  language: DigestLanguage,
  title: string,
  content: SectionContent,
): Digest {
  const titles = SECTION_TITLES[language];
  const sections = DIGEST_TEMPLATES[kind].map((section): DigestSection => {
    if (section === 'summary') return { kind: 'summary', title: titles.summary, text: content.summary };
    if (section === 'action_item_list')
      return { kind: section, title: titles[section], items: content.action_item_list };
    return { kind: section, title: titles[section], items: content[section] };
  });
  const digest = { type: kind, language, title, sections };
  return { ...digest, markdown: renderDigestMarkdown(digest) };
}

/** The title the service suggests for a meeting when nobody gave one. */
export function suggestDigestTitle(input: DigestInput): string {
  return suggestTitle(scoreSentences(input.segments, input.language, input.memory ?? []), input.kind, input.language);
}

/** A title from the weightiest terms ("Release notes, budget and search"), else the kind's name. */
export function suggestTitle(sentences: readonly Sentence[], kind: DigestKind, language: DigestLanguage): string {
  const terms = titleTerms(sentences, language);
  if (terms.length === 0) return KIND_NAMES[language][kind];
  const joined =
    terms.length === 1
      ? terms[0]
      : `${terms.slice(0, -1).join(language === 'fa' ? '، ' : ', ')}${language === 'fa' ? ' و ' : ' and '}${terms[terms.length - 1]}`;
  return language === 'fa' ? joined : joined.charAt(0).toUpperCase() + joined.slice(1);
}

export function renderDigestMarkdown(digest: Omit<Digest, 'markdown'>): string {
  const lines = [`# ${oneLine(digest.title)}`, ''];
  const none = NONE_NOTED[digest.language];
  for (const section of digest.sections) {
    lines.push(`## ${section.title}`, '');
    if (section.kind === 'summary') {
      lines.push(section.text || none);
    } else if (section.items.length === 0) {
      lines.push(none);
    } else if (section.kind === 'action_item_list') {
      for (const item of section.items)
        lines.push(`- [ ] ${oneLine(item.text)}${item.owner ? ` — **${oneLine(item.owner)}**` : ''}`);
    } else {
      for (const item of section.items) lines.push(`- ${oneLine(item)}`);
    }
    lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

/** Names the digest may assign work to: speakers' given names and capitalized words of memory notes. */
function knownNames(input: DigestInput): string[] {
  const names = new Set<string>();
  for (const s of input.segments) if (s.speakerName) names.add(s.speakerName.trim().split(/\s+/)[0]);
  for (const note of input.memory ?? []) {
    for (const m of note.matchAll(/(?:^|[^\p{L}])(\p{Lu}\p{Ll}+)/gu)) {
      // A note's first word is capitalized anyway; there only a known first name counts.
      if (m.index !== 0 || FIRST_NAMES.has(m[1].toLowerCase())) names.add(m[1]);
    }
  }
  return [...names].filter(Boolean);
}

function joinSentences(sentences: readonly Sentence[], language: DigestLanguage): string {
  // Decoder sentences have no final stop; one is added between them so the summary reads as prose.
  const stop = (s: Sentence): string => (isQuestion(s.text, language) ? (language === 'fa' ? '؟' : '?') : '.');
  return sentences.map((s) => (/[.!?؟…]["')\]]*$/.test(s.text) ? s.text : `${s.text}${stop(s)}`)).join(' ');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
