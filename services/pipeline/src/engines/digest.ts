/**
 * Writing the digest. `DigestEngine` is the seam the pipeline depends on; the extractive
 * engine is the offline default: no model, every sentence quoted from the transcript.
 */
import { buildExtractiveDigest, type Digest, type DigestInput } from '../domain/digest';
import { asEngineError } from './engine-error';

export type {
  Digest,
  DigestInput,
  DigestSection,
  ActionItem,
  DigestKind,
  DigestLanguage,
  DigestSegment,
} from '../domain/digest';

export interface DigestEngine {
  /** Throws EngineError GENERATE_FAILED when no digest can be written. */
  generate(input: DigestInput): Promise<Digest>;
}

export class ExtractiveDigest implements DigestEngine {
  async generate(input: DigestInput): Promise<Digest> {
    try {
      return buildExtractiveDigest(input);
    } catch (err) {
      throw asEngineError(err, 'GENERATE_FAILED', 'extractive digest failed');
    }
  }
}
