import { EnvReader, readCommonConfig } from '../src/config';

/** LOG_BUFFER_BYTES: how many bytes of log lines a service gathers before one write (logger.ts). */
function read(env: Record<string, string>) {
  const r = new EnvReader(env);
  const config = readCommonConfig(r, 'account');
  return r.done('account', config);
}

describe('LOG_BUFFER_BYTES', () => {
  it('gathers 15,000 bytes of lines by default, and none when set to 0', () => {
    expect(read({}).logBufferBytes).toBe(15_000);
    expect(read({ LOG_BUFFER_BYTES: '0' }).logBufferBytes).toBe(0);
    expect(read({ LOG_BUFFER_BYTES: '8192' }).logBufferBytes).toBe(8192);
  });

  it('refuses what the log stream cannot gather (16 KB and more), negatives and words, naming the variable', () => {
    expect(() => read({ LOG_BUFFER_BYTES: '16384' })).toThrow(/LOG_BUFFER_BYTES must be below 16384/);
    expect(() => read({ LOG_BUFFER_BYTES: '-1' })).toThrow(/LOG_BUFFER_BYTES must be a number >= 0/);
    expect(() => read({ LOG_BUFFER_BYTES: 'lots' })).toThrow(/LOG_BUFFER_BYTES must be a number >= 0/);
  });
});
