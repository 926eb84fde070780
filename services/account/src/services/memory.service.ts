import type { Kysely } from 'kysely';
import { ApiError } from '@mm/http';
import type { Database } from '../db/schema';
import { MemoryRepository, type MemoryItem } from '../db/memory.repository';
import { SettingsRepository } from '../db/settings.repository';
import { editedNoteText, learnCandidates, noteKey, type LearnInput } from '../domain/memory-note';
import { digestNotes, type DigestForNotes } from '../domain/digest-notes';

const disabled = () =>
  new ApiError('MEMORY_DISABLED', 'Memory is switched off for this account; notes cannot be edited or deleted.');
const noNote = () => new ApiError('NOT_FOUND', 'No memory note with that id.');

export interface LearnResult {
  /** False for a meeting already handled (a redelivery) or handled while learning was off. */
  applied: boolean;
  replay: boolean;
  added: number;
  strengthened: number;
}

/**
 * Use cases of memory notes. Memory itself is an account feature (`memoryOn`, from the principal):
 * while it is off the owner sees no notes and can neither edit nor delete them (MEMORY_DISABLED);
 * the notes are kept. memoryLearningEnabled false only stops learning: the notes stay listed,
 * editable and in use by digests.
 */
export class MemoryService {
  readonly repo: MemoryRepository;
  private readonly settings: SettingsRepository;
  constructor(private readonly db: Kysely<Database>) {
    this.repo = new MemoryRepository(db);
    this.settings = new SettingsRepository(db);
  }

  async list(accountId: string, memoryOn: boolean): Promise<{ memoryEnabled: boolean; items: MemoryItem[] }> {
    return { memoryEnabled: memoryOn, items: memoryOn ? await this.repo.list(this.db, accountId) : [] };
  }

  /** The notes a new digest reads (whatever the learning setting: existing notes stay in use). */
  async notesForDigest(accountId: string): Promise<{ items: { text: string }[] }> {
    return { items: (await this.repo.list(this.db, accountId)).map((n) => ({ text: n.text })) };
  }

  /** The owner's edit: new text, and the note is pinned (never rewritten or deleted by the service). */
  async edit(accountId: string, memoryOn: boolean, id: string, rawText: string): Promise<MemoryItem> {
    if (!memoryOn) throw disabled();
    const edited = editedNoteText(rawText);
    if ('problem' in edited) throw new ApiError('VALIDATION', edited.problem);
    return this.db.transaction().execute(async (trx) => {
      const note = await this.repo.find(trx, accountId, id);
      if (!note) throw noNote();
      const key = noteKey(edited.text);
      const duplicate = () => new ApiError('MEMORY_DUPLICATE', `Another ${note.category} note already says that.`);
      if (await this.repo.findByKey(trx, accountId, note.category, key, id)) throw duplicate();
      const saved = await this.repo.saveEdit(trx, accountId, id, edited.text, key);
      if (saved === 'duplicate') throw duplicate();
      if (!saved) throw noNote();
      return saved;
    });
  }

  async remove(accountId: string, memoryOn: boolean, id: string): Promise<{ id: string; deleted: true }> {
    if (!memoryOn) throw disabled();
    if (!(await this.repo.delete(this.db, accountId, id))) throw noNote();
    return { id, deleted: true };
  }

  /**
   * Learns from a meeting's first digest (`recordings.digest.created`): the people, terms and
   * topics it names. The account's keyterms are known vocabulary, never people.
   */
  async learnFromDigest(d: DigestForNotes & { accountId: string; recordingId: string }): Promise<LearnResult> {
    const keyterms = await this.settings.keyterms(this.db, d.accountId);
    return this.learn({ accountId: d.accountId, meetingId: d.recordingId, ...digestNotes(d, keyterms) });
  }

  /**
   * Learns from one finished meeting, once per meeting: new notes start at meetingCount 1, the
   * same note again gains one meeting, pinned notes stay as the owner left them. Nothing is
   * learned while learning is off, and such a meeting does not teach later either.
   */
  async learn(input: LearnInput): Promise<LearnResult> {
    return this.db.transaction().execute(async (trx) => {
      const { memoryLearningEnabled } = await this.settings.settings(trx, input.accountId);
      const first = await this.repo.markLearned(trx, input.accountId, input.meetingId, memoryLearningEnabled);
      const result: LearnResult = {
        applied: first && memoryLearningEnabled,
        replay: !first,
        added: 0,
        strengthened: 0,
      };
      if (!result.applied) return result;
      // One order for every meeting, so two meetings learning the same notes at once cannot deadlock.
      const candidates = learnCandidates(input).sort((a, b) => (a.category + a.key < b.category + b.key ? -1 : 1));
      for (const c of candidates) {
        const outcome = await this.repo.learn(trx, input.accountId, c);
        if (outcome === 'added') result.added++;
        if (outcome === 'strengthened') result.strengthened++;
      }
      return result;
    });
  }
}
