/**
 * Rules of memory notes: what makes two notes the same, what an edited text may be, and which
 * notes a meeting teaches. No I/O.
 */
import { caseKey, charCount, codePointLabel, collapseWhitespace, firstControlChar } from '@mm/text';
import type { MemoryCategory } from '../db/schema';

/** The contract's ceiling for one note (Limits: memory note at most 1000 characters). */
export const NOTE_MAX_CHARS = 1000;
/** Notes one meeting may add per category: a runaway extractor must not flood the memory. */
export const LEARN_MAX_PER_CATEGORY = 50;

/** Two notes of a category are duplicates when their texts match with whitespace collapsed and case ignored. */
export function noteKey(text: string): string {
  return caseKey(collapseWhitespace(text));
}

/** The text an owner's edit saves (trimmed), or the first problem with it. */
export function editedNoteText(raw: string): { text: string } | { problem: string } {
  const text = raw.trim();
  if (text === '') return { problem: 'text must have at least 1 character after trimming' };
  const chars = charCount(text);
  if (chars > NOTE_MAX_CHARS)
    return { problem: `text is ${chars} characters long; at most ${NOTE_MAX_CHARS} are allowed` };
  const control = firstControlChar(text);
  if (control) return { problem: `text contains the control character ${codePointLabel(control)}` };
  return { text };
}

/** What the recordings service hands over after a meeting (account.memory.learn). */
export interface LearnInput {
  accountId: string;
  meetingId: string;
  people: string[];
  terms: string[];
  topics: string[];
}

export interface LearnCandidate {
  category: MemoryCategory;
  text: string;
  key: string;
}

/**
 * The notes a meeting teaches: people become PEOPLE notes, terms TERMS notes and topics
 * ABOUT_YOU notes (what the owner's meetings are about). Each is whitespace-collapsed; empty,
 * overlong or control-character texts are dropped rather than refused, because the extractor's
 * output is a hint, not a user's request; repeats within the meeting count once.
 */
export function learnCandidates(input: Pick<LearnInput, 'people' | 'terms' | 'topics'>): LearnCandidate[] {
  const out: LearnCandidate[] = [];
  const groups: [MemoryCategory, string[]][] = [
    ['ABOUT_YOU', input.topics],
    ['PEOPLE', input.people],
    ['TERMS', input.terms],
  ];
  for (const [category, texts] of groups) {
    const keys = new Set<string>();
    for (const raw of texts) {
      if (keys.size >= LEARN_MAX_PER_CATEGORY) break;
      const text = collapseWhitespace(raw);
      if (text === '' || charCount(text) > NOTE_MAX_CHARS || firstControlChar(text)) continue;
      const key = noteKey(text);
      if (keys.has(key)) continue;
      keys.add(key);
      out.push({ category, text, key });
    }
  }
  return out;
}
