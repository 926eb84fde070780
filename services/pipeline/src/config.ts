import { availableParallelism } from 'node:os';
import { EnvReader, readCommonConfig, type CommonConfig } from '@mm/http';
import { readStoreConfig, type StoreConfig } from '@mm/store';

export interface PipelineConfig extends CommonConfig {
  audioStore: StoreConfig;
  asrEngine: 'pocketsphinx' | 'openai';
  llmEngine: 'extractive' | 'openai';
  openai: { baseUrl: string; apiKey: string | null; asrModel: string; llmModel: string; llmContextTokens: number };
  /** How meetings are sent to the OpenAI-compatible recognizer (ASR_ENGINE=openai). */
  remoteAsr: RemoteAsrConfig;
  /** Automatic retries of a failed step before the failure is final. */
  autoRetries: number;
  autoRetryDelaySeconds: number;
  /** Transcriptions run at once (each keeps about one core busy); default one per core. */
  transcribeConcurrency: number;
  /**
   * Transcription jobs taken from the queue and held at once (across replicas), among which the
   * next to run is chosen fairly across accounts; the rest wait in JetStream in submit order.
   */
  transcribeWindow: number;
  /**
   * Decoder processes the pipeline process runs at once, all transcriptions together (the shared
   * decoder slots); a lone transcription's audio is cut for that many. Default one per core, so a
   * lone meeting is ready soonest and a burst never runs more decoders than cores.
   */
  asrDecoders: number;
  /** How long a job may go without a heartbeat before JetStream gives it to another worker (a crashed one). */
  ackWaitSeconds: number;
}

export interface RemoteAsrConfig {
  /** Requests in flight at once, the whole process together (halved while the server answers 429). */
  concurrency: number;
  /** Longest piece sent, seconds. */
  pieceSeconds: number;
  /** Largest piece sent, bytes (OpenAI refuses files over 25 MiB). */
  pieceBytes: number;
  format: 'flac' | 'opus';
  /** One request's limit; a stalled request is abandoned and sent again. */
  timeoutSeconds: number;
  /** Tries of one piece for server errors, timeouts and network errors. */
  attempts: number;
  /** 429 answers one piece bears (each waited out) before the meeting fails, retryable. */
  rateLimitedTries: number;
  /** First wait between tries (doubling, with jitter, up to 30 s). */
  backoffMs: number;
  /**
   * The language meetings are spoken in (ISO 639-1), sent with every piece when the job names
   * none; null: the server detects it per piece. An operator's setting for a deployment whose
   * meetings are all in one language: the contract has no field for the spoken language.
   */
  language: string | null;
}

/** OPENAI_ASR_LANGUAGE: a two-letter ISO 639-1 code (Whisper's `language`), or unset. */
function spokenLanguage(r: EnvReader): string | null {
  const v = r.optional('OPENAI_ASR_LANGUAGE')?.trim().toLowerCase() || null;
  if (v !== null && !/^[a-z]{2}$/.test(v))
    r.problem('OPENAI_ASR_LANGUAGE must be a two-letter ISO 639-1 code such as fa or en');
  return v;
}

/** Reads the pipeline's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<PipelineConfig> {
  const r = new EnvReader(env);
  const asrEngine = r.oneOf('ASR_ENGINE', ['pocketsphinx', 'openai'] as const, 'pocketsphinx');
  const llmEngine = r.oneOf('LLM_ENGINE', ['extractive', 'openai'] as const, 'extractive');
  const baseUrl = r.str('OPENAI_BASE_URL', 'https://api.openai.com');
  const apiKey = r.optional('OPENAI_API_KEY');
  if ((asrEngine === 'openai' || llmEngine === 'openai') && !r.optional('OPENAI_BASE_URL'))
    r.problem('OPENAI_BASE_URL must be set when an openai engine is chosen');
  return r.done('pipeline', {
    ...readCommonConfig(r, 'pipeline'),
    audioStore: readStoreConfig(r),
    asrEngine,
    llmEngine,
    openai: {
      baseUrl,
      apiKey,
      asrModel: r.str('ASR_MODEL', 'whisper-1'),
      llmModel: r.str('LLM_MODEL', 'gpt-4o-mini'),
      llmContextTokens: r.num('LLM_CONTEXT_TOKENS', 100_000, 1000),
    },
    remoteAsr: {
      concurrency: r.num('OPENAI_ASR_CONCURRENCY', 4, 1),
      pieceSeconds: r.num('OPENAI_ASR_PIECE_SECONDS', 600, 30),
      pieceBytes: Math.round(r.num('OPENAI_ASR_PIECE_MB', 24, 1) * 2 ** 20),
      format: r.oneOf('OPENAI_ASR_FORMAT', ['flac', 'opus'] as const, 'flac'),
      timeoutSeconds: r.num('OPENAI_ASR_TIMEOUT_SECONDS', 300, 1),
      attempts: r.num('OPENAI_ASR_ATTEMPTS', 5, 1),
      rateLimitedTries: r.num('OPENAI_ASR_RATE_LIMITED_TRIES', 30, 1),
      backoffMs: r.num('OPENAI_ASR_BACKOFF_MS', 1000, 0),
      language: spokenLanguage(r),
    },
    autoRetries: r.num('PIPELINE_AUTO_RETRIES', 2, 0),
    autoRetryDelaySeconds: r.num('PIPELINE_AUTO_RETRY_DELAY_SECONDS', 10, 0),
    transcribeConcurrency: r.num('PIPELINE_TRANSCRIBE_CONCURRENCY', availableParallelism(), 1),
    transcribeWindow: r.num('PIPELINE_TRANSCRIBE_WINDOW', 16, 1),
    asrDecoders: r.num('PIPELINE_ASR_DECODERS', availableParallelism(), 1),
    ackWaitSeconds: r.num('PIPELINE_ACK_WAIT_SECONDS', 30, 1),
  });
}
