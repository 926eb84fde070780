import { randomBytes } from 'node:crypto';
import { connectBus, dropNamespace, ensureStream, streamName, type Bus } from '@mm/bus';
import { EnvReader, readStreamSettings } from '@mm/http';

/**
 * Issue 26: each stream's replicas, size cap, age and discard policy come from the configuration;
 * a service's start makes the streams with them or brings existing ones to them (a second start
 * with the same settings changes nothing).
 */
const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const namespace = `s${randomBytes(4).toString('hex')}.`;
const buses: Bus[] = [];

const settings = (env: Record<string, string>) => {
  const r = new EnvReader(env);
  const s = readStreamSettings(r);
  r.done('test', {});
  return s;
};
const connect = async (env: Record<string, string>) => {
  const bus = await connectBus(url, 'operator', namespace, { streams: settings(env) });
  buses.push(bus);
  return bus;
};
const info = async (bus: Bus, name: string) => (await bus.jsm.streams.info(streamName(namespace, name))).config;

afterAll(async () => {
  await dropNamespace(buses[0]);
  for (const b of buses) await b.close();
});

describe('JetStream streams from the configuration', () => {
  it('makes the streams with the configured limits, updates them when the settings change, and leaves them alone otherwise', async () => {
    const first = await connect({
      STREAM_MAX_BYTES_PIPELINE: '1048576',
      STREAM_MAX_AGE_DAYS_PIPELINE: '2',
      STREAM_DISCARD: 'new',
    });
    expect(await info(first, 'PIPELINE')).toMatchObject({
      max_bytes: 1048576,
      max_age: 2 * 86_400 * 1e9,
      discard: 'new',
      num_replicas: 1,
    });
    expect(await info(first, 'RECORDINGS')).toMatchObject({
      max_bytes: -1,
      max_age: 31 * 86_400 * 1e9,
      discard: 'new',
    });

    const second = await connect({ STREAM_MAX_BYTES: '2097152', STREAM_DISCARD: 'old' });
    expect(await info(second, 'PIPELINE')).toMatchObject({
      max_bytes: 2097152,
      max_age: 7 * 86_400 * 1e9,
      discard: 'old',
    });
    expect(await info(second, 'RECORDINGS')).toMatchObject({ max_bytes: 2097152, discard: 'old' });

    // The same settings again: no update is sent (counted on the manager's update).
    const updates: string[] = [];
    const update = second.jsm.streams.update.bind(second.jsm.streams);
    second.jsm.streams.update = (name, config) => {
      updates.push(name);
      return update(name, config);
    };
    for (const name of ['PIPELINE', 'RECORDINGS'] as const)
      await ensureStream(second.jsm, namespace, name, settings({ STREAM_MAX_BYTES: '2097152' }));
    expect(updates).toEqual([]);
    await ensureStream(second.jsm, namespace, 'PIPELINE', settings({ STREAM_MAX_BYTES: '4194304' }));
    expect(updates).toEqual([streamName(namespace, 'PIPELINE')]);
  });

  it('names a bad setting at start', () => {
    expect(() => settings({ STREAM_MAX_BYTES_NOPE: '1', STREAM_DISCARD: 'sometimes', STREAM_REPLICAS: '0' })).toThrow(
      /STREAM_MAX_BYTES_NOPE names no stream.*STREAM_REPLICAS must be a number >= 1.*STREAM_DISCARD must be one of old, new/,
    );
  });
});
