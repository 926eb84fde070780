import { EnvReader, localSockets, readCommonConfig, type ServiceId } from '../src/config';

/** LOCAL_SOCKET_DIR: every service on one machine; the forwarded services listen there besides their ports. */
function read(service: ServiceId, env: Record<string, string>) {
  const r = new EnvReader(env);
  const config = readCommonConfig(r, service);
  return r.done(service, config);
}

describe('LOCAL_SOCKET_DIR', () => {
  it('gives each forwarded service its socket, and the gateway and the app none', () => {
    const env = { LOCAL_SOCKET_DIR: '/run/mm' };
    expect(read('recordings', env).listenSocket).toBe('/run/mm/recordings.sock');
    expect(read('account', env).listenSocket).toBe('/run/mm/account.sock');
    expect(read('gateway', env).listenSocket).toBeNull();
    expect(read('web', env).listenSocket).toBeNull();
    expect(read('gateway', env).localSocketDir).toBe('/run/mm');
    expect(localSockets('/run/mm')).toEqual({
      account: '/run/mm/account.sock',
      recordings: '/run/mm/recordings.sock',
      series: '/run/mm/series.sock',
      ask: '/run/mm/ask.sock',
      events: '/run/mm/events.sock',
    });
  });

  it('is off when unset or empty: TCP only, as between pods', () => {
    for (const env of [{}, { LOCAL_SOCKET_DIR: '' }] as Record<string, string>[]) {
      expect(read('recordings', env).listenSocket).toBeNull();
      expect(read('gateway', env).localSocketDir).toBeNull();
    }
    expect(localSockets(null)).toEqual({});
  });

  it('refuses a directory too long for a Unix socket address, naming the variable', () => {
    expect(() => read('recordings', { LOCAL_SOCKET_DIR: `/tmp/${'x'.repeat(90)}` })).toThrow(
      /LOCAL_SOCKET_DIR is too long/,
    );
  });
});
