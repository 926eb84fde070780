import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { connectBus, dropNamespace, serve, type Bus } from '@mm/bus';
import { BUS } from '@mm/contract';
import { migrateSchema, openDatabase } from '@mm/db';
import { createLogger } from '@mm/http';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import type { MeetingStats } from '../src/domain/series';
import { MeetingStatsUnavailable, RecordingsStatsClient } from '../src/bus/series-stats.client';
import { SeriesService, type MeetingStatsSource } from '../src/services/series.service';

const DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test';
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const logger = createLogger('series-test', 'silent');

let db: Kysely<Database>;
let bus: Bus;
beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'series', migrations);
  db = openDatabase<Database>({ url: DATABASE_URL, schema: 'series', poolSize: 2 }).db;
  // A namespace of its own: no running stack answers here unless the test does.
  bus = await connectBus(NATS_URL, 'operator', `t${randomBytes(5).toString('hex')}.`);
});
afterAll(async () => {
  await dropNamespace(bus);
  await bus.close();
  await db.destroy();
});

const newOwner = () => `acc_test_${randomBytes(6).toString('hex')}`;

/** A stats source that records what it is asked and fails while `down`. */
class FakeStats implements MeetingStatsSource {
  calls: string[][] = [];
  down = false;
  async statsOf(ids: string[]): Promise<Map<string, MeetingStats>> {
    this.calls.push(ids);
    if (this.down) throw new MeetingStatsUnavailable('down');
    return new Map(ids.map((id) => [id, { meetingCount: 4, lastRecordedAt: new Date('2024-03-20T10:00:00Z') }]));
  }
  changes: { seriesId: string; name: string }[] = [];
  async seriesChanged(s: { seriesId: string; name: string; titleStyle: string; dateCalendar: string }): Promise<void> {
    this.changes.push({ seriesId: s.seriesId, name: s.name });
  }
}

describe('RecordingsStatsClient (recordings.series.stats)', () => {
  it('turns the answer into stats per id, and 0 and null for an id the answer lacks', async () => {
    const sub = serve(
      bus.nc,
      BUS.seriesStats,
      async () => ({ stats: { ser_a: { meetingCount: 2, lastRecordedAt: '2024-03-20T10:00:00.000Z' } } }),
      () => undefined,
    );
    try {
      const stats = await new RecordingsStatsClient(bus.nc, logger).statsOf(['ser_a', 'ser_b', 'ser_a']);
      expect([...stats.entries()]).toEqual([
        ['ser_a', { meetingCount: 2, lastRecordedAt: new Date('2024-03-20T10:00:00Z') }],
        ['ser_b', { meetingCount: 0, lastRecordedAt: null }],
      ]);
    } finally {
      sub.unsubscribe();
    }
  });

  it('sends the series asked for in one turn by concurrent reads in one request, each answered as itself', async () => {
    const asked: string[][] = [];
    const counts: Record<string, number> = { ser_a: 1, ser_b: 2, ser_c: 3 };
    const sub = serve(
      bus.nc,
      BUS.seriesStats,
      async ({ seriesIds }) => {
        asked.push(seriesIds);
        return {
          stats: Object.fromEntries(
            seriesIds.filter((id) => counts[id]).map((id) => [id, { meetingCount: counts[id], lastRecordedAt: null }]),
          ),
        };
      },
      () => undefined,
    );
    try {
      const client = new RecordingsStatsClient(bus.nc, logger);
      const answers = await Promise.all([
        client.statsOf(['ser_a']),
        client.statsOf(['ser_b', 'ser_a']),
        client.statsOf(['ser_c', 'ser_x']),
      ]);
      expect(answers.map((m) => Object.fromEntries([...m].map(([id, s]) => [id, s.meetingCount])))).toEqual([
        { ser_a: 1 },
        { ser_b: 2, ser_a: 1 },
        { ser_c: 3, ser_x: 0 },
      ]);
      expect(asked).toEqual([['ser_a', 'ser_b', 'ser_c', 'ser_x']]);
      // A read that comes after the answer asks again: counts are never kept.
      counts.ser_a = 5;
      expect((await client.statsOf(['ser_a'])).get('ser_a')?.meetingCount).toBe(5);
      expect(asked).toHaveLength(2);
    } finally {
      sub.unsubscribe();
    }
  });

  it('fails with MeetingStatsUnavailable at once when no recordings service listens', async () => {
    const started = Date.now();
    await expect(new RecordingsStatsClient(bus.nc, logger).statsOf(['ser_a'])).rejects.toBeInstanceOf(
      MeetingStatsUnavailable,
    );
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('fails with MeetingStatsUnavailable when the recordings service does not answer in time', async () => {
    const sub = serve(
      bus.nc,
      BUS.seriesStats,
      () => new Promise((r) => setTimeout(() => r({ stats: {} }), 1500)),
      () => undefined,
    );
    try {
      const started = Date.now();
      await expect(new RecordingsStatsClient(bus.nc, logger, 300).statsOf(['ser_a'])).rejects.toBeInstanceOf(
        MeetingStatsUnavailable,
      );
      expect(Date.now() - started).toBeLessThan(1200);
    } finally {
      sub.unsubscribe();
    }
  });
});

describe('SeriesService with the meeting stats', () => {
  it('asks once for every series of a list, and not at all for an empty list', async () => {
    const stats = new FakeStats();
    const series = new SeriesService(db, stats);
    const owner = newOwner();
    expect(await series.listReadable(owner)).toEqual([]);
    expect(stats.calls).toEqual([]);
    const a = await series.create(owner, { name: 'Alpha' });
    const b = await series.create(owner, { name: 'Bravo' });
    const items = await series.listReadable(owner);
    expect(stats.calls).toEqual([[a.id, b.id]]);
    expect(items.map((i) => [i.row.id, i.stats.meetingCount])).toEqual([
      [a.id, 4],
      [b.id, 4],
    ]);
  });

  it('creates a series without asking (a new series has no meeting)', async () => {
    const stats = new FakeStats();
    stats.down = true;
    const row = await new SeriesService(db, stats).create(newOwner(), { name: 'Fresh' });
    expect(row.name).toBe('Fresh');
    expect(stats.calls).toEqual([]);
  });

  it('fails getSeries and listReadableSeries rather than show a false count while recordings is down', async () => {
    const stats = new FakeStats();
    const series = new SeriesService(db, stats);
    const owner = newOwner();
    const row = await series.create(owner, { name: 'Weekly' });
    stats.down = true;
    await expect(series.get(owner, row.id)).rejects.toBeInstanceOf(MeetingStatsUnavailable);
    await expect(series.listReadable(owner)).rejects.toBeInstanceOf(MeetingStatsUnavailable);
  });

  it('writes nothing when updateSeries cannot get the stats, so a retry is safe', async () => {
    const stats = new FakeStats();
    const series = new SeriesService(db, stats);
    const owner = newOwner();
    const row = await series.create(owner, { name: 'Before' });
    stats.down = true;
    await expect(series.update(owner, row.id, { name: 'After' })).rejects.toBeInstanceOf(MeetingStatsUnavailable);
    expect((await series.owned(owner, row.id)).name).toBe('Before');
    stats.down = false;
    const updated = await series.update(owner, row.id, { name: 'After' });
    expect(updated.row.name).toBe('After');
    expect(updated.stats.meetingCount).toBe(4);
  });

  it("answers NOT_FOUND for another owner's series without asking for stats", async () => {
    const stats = new FakeStats();
    const series = new SeriesService(db, stats);
    const row = await series.create(newOwner(), { name: 'Theirs' });
    await expect(series.update(newOwner(), row.id, { name: 'Mine' })).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(series.get(newOwner(), row.id)).rejects.toMatchObject({ code: 'NOT_FOUND' });
    expect(stats.calls).toEqual([]);
  });
});
