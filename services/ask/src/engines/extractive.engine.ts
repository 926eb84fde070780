import { extractiveAnswer } from '../domain/extractive';
import type { AskEngine } from './engine';

/** The offline default: retrieval over the turns with their own words as the answer. */
export class ExtractiveAskEngine implements AskEngine {
  async answer(input: Parameters<AskEngine['answer']>[0]) {
    return extractiveAnswer(input);
  }
}
