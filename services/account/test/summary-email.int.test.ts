import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import pino from 'pino';
import { connectBus, dropNamespace, serve, type Bus } from '@mm/bus';
import { ApiError } from '@mm/http';
import { migrateSchema, openDatabase } from '@mm/db';
import { migrations } from '../migrations';
import type { Database } from '../src/db/schema';
import { SettingsRepository } from '../src/db/settings.repository';
import { EmailBusyError, SummaryEmailService } from '../src/services/summary-email.service';
import { BUS } from '@mm/contract';
import { PermanentMailError, type Mailer, type OutgoingMail } from '../src/mail/smtp.mailer';
import type { DigestForEmail } from '../src/domain/summary-email';

/** The summary email use case against real Postgres and NATS, with the SMTP side faked. */
const DATABASE_URL = process.env.DATABASE_URL!;
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const FONTS = { regular: null, bold: null };

let db: Kysely<Database>;
/** The gateway's side (it answers accountContact) and the account service's own connection. */
let gateway: Bus;
let bus: Bus;
const emails = new Map<string, string | null>();
/** Accounts whose address the stub gateway fails to answer. */
const broken = new Set<string>();
let sent: OutgoingMail[] = [];
let failNext: Error | null = null;
const mailer: Mailer = {
  async send(mail) {
    if (failNext) {
      const err = failNext;
      failNext = null;
      throw err;
    }
    sent.push(mail);
    return { messageId: `<m${sent.length}@test>` };
  },
  close: () => undefined,
};

beforeAll(async () => {
  await migrateSchema(DATABASE_URL, 'account', migrations);
  db = openDatabase<Database>({ url: DATABASE_URL, schema: 'account', poolSize: 4 }).db;
  const namespace = `t${randomBytes(5).toString('hex')}.`;
  gateway = await connectBus(NATS_URL, 'gateway', namespace);
  bus = await connectBus(NATS_URL, 'account', namespace);
  serve(
    gateway.nc,
    BUS.accountContact,
    async (p) => {
      const id = p.accountId;
      if (broken.has(id)) throw new Error('access database away');
      if (!emails.has(id)) throw new ApiError('NOT_FOUND', 'No such account.');
      return { email: emails.get(id) ?? null, displayName: null };
    },
    () => undefined,
  );
});
afterAll(async () => {
  await dropNamespace(bus);
  await bus.close();
  await gateway.close();
  await db.destroy();
});
beforeEach(() => {
  sent = [];
  failNext = null;
});

const service = (over: { mailer?: Mailer | null } = {}) =>
  new SummaryEmailService({
    db,
    nc: bus.nc,
    mailer: over.mailer === undefined ? mailer : over.mailer,
    fonts: FONTS,
    appUrl: 'http://app.test',
    logger: pino({ level: 'silent' }),
  });

let n = 0;
async function owner(opts: { email?: string | null; enabled?: boolean; known?: boolean } = {}) {
  const accountId = `acc_email_${Date.now()}_${++n}`;
  if (opts.known !== false) emails.set(accountId, opts.email === undefined ? `${accountId}@example.test` : opts.email);
  await new SettingsRepository(db).updateSettings(db, accountId, { summaryEmailEnabled: opts.enabled ?? true });
  const digest: DigestForEmail & { accountId: string } = {
    accountId,
    recordingId: `rec_${accountId}`,
    displayTitle: 'Weekly standup',
    language: 'en',
    recordedAt: '2026-03-05T09:30:00.000Z',
    speakers: [],
    sections: [{ kind: 'summary', title: 'Summary', text: 'We ship on Friday.' }],
  };
  return { accountId, digest };
}

describe('SummaryEmailService.send', () => {
  it('sends the owner the digest with a PDF, once, however often the digest comes', async () => {
    const { accountId, digest } = await owner();
    expect(await service().send(digest)).toBe('sent');
    expect(await service().send(digest)).toBe('already-handled');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ to: `${accountId}@example.test`, subject: 'Meeting notes: Weekly standup' });
    expect(sent[0].text).toContain('We ship on Friday.');
    expect(sent[0].text).toContain(`http://app.test/recordings/${digest.recordingId}`);
    expect(sent[0].attachments).toEqual([
      expect.objectContaining({ filename: 'Weekly standup 2026-03-05.pdf', contentType: 'application/pdf' }),
    ]);
    expect(sent[0].attachments[0].content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('sends nothing while the setting is off, without an email, for an unknown account or without SMTP', async () => {
    expect(await service().send((await owner({ enabled: false })).digest)).toBe('setting-off');
    expect(await service().send((await owner({ email: null })).digest)).toBe('no-email');
    expect(await service().send((await owner({ known: false })).digest)).toBe('no-email');
    expect(await service({ mailer: null }).send((await owner()).digest)).toBe('no-smtp');
    expect(sent).toEqual([]);
  });

  it('gives the claim back after a failure worth retrying, so the next delivery sends', async () => {
    const { digest } = await owner();
    failNext = Object.assign(new Error('connection refused'), { code: 'ECONNECTION' });
    await expect(service().send(digest)).rejects.toThrow('connection refused');
    expect(await service().send(digest)).toBe('sent');
    expect(sent).toHaveLength(1);
  });

  it('gives up for good on a permanent refusal (5xx), and on the last attempt of a passing failure', async () => {
    const refused = await owner();
    failNext = new PermanentMailError('SMTP refused the message (550)');
    expect(await service().send(refused.digest)).toBe('failed');
    expect(await service().send(refused.digest)).toBe('already-handled');
    const last = await owner();
    failNext = new Error('timeout');
    expect(await service().send(last.digest, { lastAttempt: true })).toBe('failed');
    expect(sent).toEqual([]);
  });

  it("retries while the owner's address cannot be had, and gives up on the last attempt", async () => {
    const { accountId, digest } = await owner();
    broken.add(accountId);
    await expect(service().send(digest)).rejects.toMatchObject({ code: 'INTERNAL_ERROR' });
    expect(await service().send(digest, { lastAttempt: true })).toBe('failed');
    expect(sent).toEqual([]);
  });

  it('leaves a digest another delivery is sending right now for later', async () => {
    const { accountId, digest } = await owner();
    await db
      .insertInto('summaryEmail')
      .values({ recordingId: digest.recordingId, accountId, state: 'sending' })
      .execute();
    await expect(service().send(digest)).rejects.toBeInstanceOf(EmailBusyError);
    expect(await service().send(digest, { lastAttempt: true })).toBe('already-handled');
    // A claim left by a process that died long ago is taken over.
    await db
      .updateTable('summaryEmail')
      .set({ claimedAt: new Date(Date.now() - 3600_000) })
      .where('recordingId', '=', digest.recordingId)
      .execute();
    expect(await service().send(digest)).toBe('sent');
  });
});
