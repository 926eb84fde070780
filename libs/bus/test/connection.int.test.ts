import { randomBytes } from 'node:crypto';
import { connect, RetentionPolicy, StorageType } from 'nats';
import { BUS_STREAMS } from '@mm/contract';
import { connectBus, dropNamespace, natsCredentials, streamName } from '../src/connection';

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';

describe('connectBus and the streams', () => {
  it('adds subjects a newer release gave a stream that an older release made, keeping the old ones', async () => {
    const namespace = `t${randomBytes(5).toString('hex')}.`;
    const name = streamName(namespace, 'RECORDINGS');
    const nc = await connect({ servers: NATS_URL, ...natsCredentials('operator') });
    const jsm = await nc.jetstreamManager();
    // As the release before recordings.digest.> made it, plus a subject added by hand.
    await jsm.streams.add({
      name,
      subjects: [`${namespace}recordings.recording.>`, `${namespace}recordings.extra.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
    });
    const bus = await connectBus(NATS_URL, 'operator', namespace);
    try {
      const wanted = BUS_STREAMS.RECORDINGS.subjects.map((s) => namespace + s);
      const subjects = (await jsm.streams.info(name)).config.subjects;
      expect(subjects).toEqual(expect.arrayContaining([...wanted, `${namespace}recordings.extra.>`]));
      expect(subjects).toContain(`${namespace}recordings.digest.>`);
      // A second start finds nothing to change.
      await (await connectBus(NATS_URL, 'operator', namespace)).close();
      expect((await jsm.streams.info(name)).config.subjects).toEqual(subjects);
    } finally {
      await dropNamespace(bus);
      await bus.close();
      await nc.close();
    }
  });
});
