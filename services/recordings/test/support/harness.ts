import { AsyncLocalStorage } from 'node:async_hooks';
import { mkdtempSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { RemoteError, type RequestOptions } from '@mm/bus';
import { BUS, type RequestEntry, type ResolvedSeries, type TranscriptDoc } from '@mm/contract';
import { ensureDatabase, migrateSchema, openDatabase } from '@mm/db';
import { createLogger, type Principal } from '@mm/http';
import { openStore, type ObjectStore } from '@mm/store';
import { migrations } from '../../migrations';
import type { Database } from '../../src/db/schema';
import { createUseCases, type UseCases } from '../../src/usecases';
import type { BusCall } from '../../src/usecases/context';

/** One hold of the fake wallet: closed once, by a capture or a release (the first wins, as the real one). */
export interface FakeHold {
  accountId: string;
  minutes: number;
  closed: null | 'capture' | 'release';
  captured: number;
}

/**
 * The other services as recordings asks them over the bus, in memory: the wallet (holds closed
 * once, as the account service's), settings, memory notes and series. Every request is recorded,
 * with whether it came from inside a transaction.
 */
export class FakeBus {
  readonly holds = new Map<string, FakeHold>();
  readonly series = new Map<string, ResolvedSeries>();
  /** A series' readers by account, when set for it: its answer's access is theirs, others NOT_FOUND. */
  readonly seriesReaders = new Map<string, Map<string, 'owner' | 'member'>>();
  namingMode: 'AUTO' | 'FORCE_ON' | 'FORCE_OFF' = 'FORCE_OFF';
  memory: string[] = ['likes short digests'];
  /** Refuse holds with this code (e.g. INSUFFICIENT_MINUTES). */
  refuseHolds: string | null = null;
  readonly calls: { name: string; payload: unknown }[] = [];

  /** A series the fake answers for (owner access to anyone, unless its readers are set). */
  addSeries(id: string, name: string): void {
    this.series.set(id, {
      id,
      name,
      titleStyle: 'TOPIC',
      dateCalendar: 'GREGORIAN',
      access: 'owner',
      keyterms: [],
      inheritAccountKeyterms: true,
    });
  }

  readonly call: BusCall = async <P, R>(entry: RequestEntry<P, R>, payload: P, _opts?: RequestOptions): Promise<R> => {
    this.calls.push({ name: entry.name, payload });
    return (await this.answer(entry.name, payload as Record<string, any>)) as R;
  };

  private async answer(name: string, p: Record<string, any>): Promise<unknown> {
    switch (name) {
      case BUS.walletHold.name: {
        if (this.refuseHolds && !p.force)
          throw new RemoteError(this.refuseHolds, 'refused', { requiredMinutes: p.minutes });
        if (p.dryRun) return { held: false, replay: false };
        const replay = this.holds.has(p.reference);
        if (!replay)
          this.holds.set(p.reference, { accountId: p.accountId, minutes: p.minutes, closed: null, captured: 0 });
        return { held: true, replay };
      }
      case BUS.walletCapture.name:
      case BUS.walletRelease.name: {
        const h = this.holds.get(p.reference);
        if (!h || h.accountId !== p.accountId) throw new RemoteError('NOT_FOUND', `No hold for ${p.reference}.`);
        if (!h.closed) {
          h.closed = name === BUS.walletCapture.name ? 'capture' : 'release';
          if (h.closed === 'capture') h.captured = Math.min(h.minutes, p.minutes ?? h.minutes);
        }
        return { captured: h.closed === 'capture' };
      }
      case BUS.settingsGet.name:
        return {
          settings: {
            speakerNamingMode: this.namingMode,
            memoryLearningEnabled: true,
            summaryEmailEnabled: false,
            uiLocale: 'en',
          },
          keyterms: ['Kubernetes'],
        };
      case BUS.memoryNotes.name:
        return { items: this.memory.map((text) => ({ text })) };
      case BUS.seriesResolve.name: {
        const s = this.series.get(p.seriesId);
        const readers = this.seriesReaders.get(p.seriesId);
        const access = readers ? readers.get(p.accountId) : s?.access;
        if (!s || !access) throw new RemoteError('NOT_FOUND', 'no such series');
        return { ...s, access };
      }
      default:
        throw new Error(`the fake bus does not answer ${name}`);
    }
  }

  /** Minutes captured for a meeting, over all its holds. */
  capturedFor(recordingId: string): number {
    let n = 0;
    for (const [ref, h] of this.holds) if (ref.split(':')[0] === recordingId) n += h.captured;
    return n;
  }

  openHolds(recordingId: string): string[] {
    return [...this.holds].filter(([ref, h]) => ref.split(':')[0] === recordingId && !h.closed).map(([ref]) => ref);
  }
}

export interface Harness {
  db: Kysely<Database>;
  store: ObjectStore;
  bus: FakeBus;
  useCases: UseCases;
  /** Bus requests and store writes made while a transaction of `db` was open (the guard). */
  violations: string[];
  close(): Promise<void>;
}

const STORE_WRITES = [
  'adopt',
  'putStream',
  'putJson',
  'copy',
  'remove',
  'getJson',
  'size',
  'tempPath',
  'withLocalFile',
] as const;

/**
 * The use cases against a database of their own (migrated like production), a file store and the
 * fake bus, without HTTP. A guard sees every transaction `db` opens (by wrapping the handle's
 * `transaction()`, whoever calls it) and records any bus request or store call made inside one.
 */
export async function startHarness(
  opts: { freeSilentMeetingsPerDay?: number; staleClaimSeconds?: number } = {},
): Promise<Harness> {
  const base = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test');
  const url = new URL(base.toString());
  url.pathname = `${base.pathname}_uc_${randomBytes(4).toString('hex')}`;
  await ensureDatabase(url.toString());
  await migrateSchema(url.toString(), 'recordings', migrations);
  const { db } = openDatabase<Database>({ url: url.toString(), schema: 'recordings', poolSize: 5 });

  const inside = new AsyncLocalStorage<true>();
  const violations: string[] = [];
  const guard = (what: string) => {
    if (inside.getStore()) violations.push(what);
  };
  const open = db.transaction.bind(db);
  (db as { transaction: typeof db.transaction }).transaction = () => {
    const builder = open();
    const execute = builder.execute.bind(builder);
    (builder as { execute: typeof builder.execute }).execute = (fn) =>
      execute((trx) => inside.run(true, () => fn(trx)));
    return builder;
  };

  const realStore = await openStore(`file:${mkdtempSync(path.join(tmpdir(), 'mm-uc-store-'))}`);
  const store = new Proxy(realStore, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver);
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => {
        if ((STORE_WRITES as readonly (string | symbol)[]).includes(prop))
          guard(`store.${String(prop)}(${String(args[0] ?? '')})`);
        return v.apply(target, args);
      };
    },
  });
  const bus = new FakeBus();
  const call: BusCall = (entry, payload, o) => {
    guard(`bus ${entry.name}`);
    return bus.call(entry, payload, o);
  };
  const useCases = createUseCases(
    { db, call, store, logger: createLogger('usecase-test', 'silent') },
    {
      naming: { autoWaitSeconds: 60, forceOnDeadlineHours: 0, singleVoiceWaitSeconds: 5 },
      freeSilentMeetingsPerDay: opts.freeSilentMeetingsPerDay ?? 1,
      staleClaimSeconds: opts.staleClaimSeconds ?? 900,
      maxRecordingMinutes: 240,
      tools: { ffmpeg: process.env.FFMPEG_PATH ?? 'ffmpeg', ffprobe: process.env.FFPROBE_PATH ?? 'ffprobe' },
    },
  );
  return {
    db,
    store,
    bus,
    useCases,
    violations,
    close: async () => {
      await db.destroy();
      await realStore.close();
      const admin = openDatabase<unknown>({ url: base.toString(), schema: 'public', poolSize: 1 }).db;
      await sql`drop database if exists ${sql.id(url.pathname.slice(1))} with (force)`.execute(admin);
      await admin.destroy();
    },
  };
}

/** An app principal of a fresh account (or the given one). */
export function principal(
  accountId = `acc_${randomBytes(4).toString('hex')}`,
  more: Partial<Principal> = {},
): Principal {
  return {
    accountId,
    displayName: null,
    source: 'app',
    tokenId: null,
    tokenName: null,
    tokenExpiresAt: null,
    scopes: ['recordings:read', 'recordings:write', 'account:read'],
    dailyMinuteCap: null,
    features: { series: true, ask: true, videoUpload: true, memory: true },
    ...more,
  };
}

/** A transcript as the pipeline writes it: two voices, the first introducing itself. */
export function transcriptDoc(speakers = 2): TranscriptDoc {
  const labels = Array.from({ length: speakers }, (_, i) => `S${i + 1}`);
  return {
    language: 'en',
    speakers: labels.map((label) => ({ label, name: null })),
    segments: labels.map((speaker, i) => ({
      index: i,
      speaker,
      startMs: i * 4000,
      endMs: i * 4000 + 3500,
      text: i === 0 ? 'Hello, my name is Sara and we ship on Friday.' : 'Agreed, the release goes out Friday.',
    })),
    stats: { totalTurns: speakers },
  };
}

/** A digest as the pipeline writes it. */
export const digestDoc = {
  type: 'MEETING',
  language: 'en',
  title: 'Release planning',
  sections: [{ kind: 'summary', title: 'Summary', text: 'We ship on Friday.' }],
  markdown: '# Release planning',
};

/**
 * The outbox's rows of one meeting, by transaction (rows written by one transaction share their
 * time and come in no set order): its events (by type), jobs (by step), timers and facts.
 */
export async function outboxOf(
  db: Kysely<Database>,
  recordingId: string,
): Promise<{ kind: string; payload: Record<string, any> }[]> {
  const rows = await db
    .selectFrom('outbox')
    .select(['payload', 'createdAt', 'id'])
    .orderBy('createdAt')
    .orderBy('id')
    .execute();
  return rows
    .map((r) => (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, any>)
    .filter((p) => p.recordingId === recordingId)
    .map((p) => ({
      kind:
        p.type ??
        (p.step
          ? `job:${p.step}`
          : p.timerId
            ? `timer:${p.kind}`
            : p.displayTitle !== undefined
              ? 'digestCreated'
              : 'other'),
      payload: p,
    }));
}
