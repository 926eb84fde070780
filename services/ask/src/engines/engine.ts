import type { AnswerDraft } from '../domain/answer';
import type { AskInput } from '../domain/extractive';
import type { AskContext } from '../services/context';

/** Writes an answer draft; its citations are checked against the real turns afterwards. */
export interface AskEngine {
  answer(input: AskInput, documents: AskContext['documents']): Promise<AnswerDraft>;
}

/** Thrown when the engine could not answer (502 GENERATE_FAILED, nothing charged). */
export class EngineFailed extends Error {}
