import { EnvReader, readAskCharsPerMinute, readCommonConfig, type CommonConfig } from '@mm/http';

export interface AskConfig extends CommonConfig {
  llmEngine: 'extractive' | 'openai';
  /** Characters an Ask reads per minute it costs (askPrice, libs/contract/src/pricing.ts). */
  charsPerMinute: number;
  openai: { baseUrl: string; apiKey: string | null; llmModel: string };
}

/** Reads the ask service's environment once; every bad variable is reported at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Readonly<AskConfig> {
  const r = new EnvReader(env);
  const llmEngine = r.oneOf('LLM_ENGINE', ['extractive', 'openai'] as const, 'extractive');
  if (llmEngine === 'openai' && !r.optional('OPENAI_BASE_URL'))
    r.problem('OPENAI_BASE_URL must be set when LLM_ENGINE=openai');
  return r.done('ask', {
    ...readCommonConfig(r, 'ask'),
    llmEngine,
    charsPerMinute: readAskCharsPerMinute(r),
    openai: {
      baseUrl: r.str('OPENAI_BASE_URL', 'https://api.openai.com'),
      apiKey: r.optional('OPENAI_API_KEY'),
      llmModel: r.str('LLM_MODEL', 'gpt-4o-mini'),
    },
  });
}
