import { loadConfig } from '../src/config';

describe('pipeline configuration: the spoken language of the remote recognizer', () => {
  it('is unset by default (the server detects it) and a two-letter code when given', () => {
    expect(loadConfig({}).remoteAsr.language).toBeNull();
    expect(loadConfig({ OPENAI_ASR_LANGUAGE: ' FA ' }).remoteAsr.language).toBe('fa');
  });

  it('refuses anything but an ISO 639-1 code', () => {
    expect(() => loadConfig({ OPENAI_ASR_LANGUAGE: 'farsi' })).toThrow(/OPENAI_ASR_LANGUAGE must be a two-letter/);
  });
});
