/**
 * THE bus table: every NATS subject between the services. `libs/bus` sends, serves and consumes
 * only through these entries and checks every message against their schemas; the NATS
 * permissions of each service are generated from `owner` and `users`. No subject string or
 * payload type is written anywhere else.
 *
 * Payload schemas are open objects (a newer sender may add optional fields); a change that would
 * break a receiver of the last snapshot (`snapshots/bus.json`) needs a new version kept beside the
 * old one (docs/decisions.md, "Versions").
 */
import {
  ACCESS_ROLES,
  DATE_CALENDARS,
  EVENT_TYPES,
  FAILURE_CODES,
  NAMING_MODES,
  RECORDING_KINDS,
  RECORDING_STATUSES,
  TITLE_STYLES,
  UI_LOCALES,
  UPDATE_CHANGES,
} from '../catalog';
import type { JsonSchema } from '../schema-helpers';
import type { BusEntry, BusKind, BusService, BusStream } from './bus.types';
import { CREDIT_KINDS, PIPELINE_STEPS } from './bus.payloads';
import type * as P from './bus.payloads';

// --- schema builders: every field gets an English description ---
const d = (schema: JsonSchema, description: string): JsonSchema => ({ ...schema, description });
const id = (what: string) => d({ type: 'string', minLength: 1, maxLength: 200 }, what);
const str = (what: string, extra: JsonSchema = {}) => d({ type: 'string', ...extra }, what);
const strOrNull = (what: string, extra: JsonSchema = {}) => d({ type: ['string', 'null'], ...extra }, what);
const int = (what: string, extra: JsonSchema = {}) => d({ type: 'integer', ...extra }, what);
const num = (what: string, extra: JsonSchema = {}) => d({ type: 'number', ...extra }, what);
const bool = (what: string) => d({ type: 'boolean' }, what);
const oneOf = (values: readonly (string | number | boolean)[], what: string) => d({ enum: [...values] }, what);
const list = (items: JsonSchema, what: string, extra: JsonSchema = {}) => d({ type: 'array', items, ...extra }, what);
const dateTime = (what: string) => str(what, { format: 'date-time' });
/** An open object: the listed properties, `required` (all by default); other properties may come. */
const obj = (
  properties: Record<string, JsonSchema>,
  what: string,
  required: string[] = Object.keys(properties),
): JsonSchema => d({ type: 'object', properties, required }, what);

const accountId = id('The account the message is about.');
const recordingId = id('The meeting (recording id).');
const jobId = id('The pipeline job.');
const texts = (what: string) => list(str('One entry.', { maxLength: 4000 }), what, { maxItems: 5000 });
const speakers = list(
  obj({ label: str('The voice label (`speaker_0`).'), name: strOrNull('The name given it, or null.') }, 'One voice.'),
  'Every voice of the transcript.',
);
const segments = list(
  obj(
    {
      index: int('Position of the turn.', { minimum: 0 }),
      speaker: str('Voice label.'),
      startMs: int('Start, ms from the beginning.', { minimum: 0 }),
      endMs: int('End, ms from the beginning.', { minimum: 0 }),
      text: str('What was said.'),
    },
    'One turn.',
  ),
  'The turns in order.',
);
/** A series Ask's query over the bus: askSeries reads it, askSeriesPrice counts the same read. */
const askSeriesQuery = obj(
  {
    seriesId: id('The series.'),
    maxMeetings: int('Most meetings to read.', { minimum: 1, maximum: 500 }),
    transcriptBudgetChars: int('Characters of transcripts to include.', { minimum: 0 }),
  },
  'Which series and how much.',
);
const askMeetingDoc = obj(
  {
    recordingId,
    recordedAt: dateTime('When the meeting was recorded.'),
    title: strOrNull('The meeting title, or null.'),
    language: str('Transcript language.'),
    digestText: str('The digest as plain text.'),
    transcript: d(
      { anyOf: [obj({ speakers, segments }, 'Speakers and turns.'), { type: 'null' }] },
      'The transcript; null when a series budget left it out.',
    ),
  },
  'What an Ask reads of one meeting.',
);
const spend = obj(
  {
    accountId,
    reference: id('Idempotency: the meeting id for a hold, the Ask id for a charge.'),
    minutes: int('Minutes to hold or charge.', { minimum: 0 }),
    tokenId: strOrNull('The spending token, or null for the app.'),
    dailyMinuteCap: d({ type: ['integer', 'null'], minimum: 0 }, "The token's daily minute cap, or null."),
    showBalance: bool('Whether a refusal may show the balance (the caller may read the account).'),
    force: bool('Skip admission: a retried meeting is not a new meeting.'),
    dryRun: bool(
      'Only ask whether the spend would be admitted now, writing nothing (a cheap refusal before expensive work).',
    ),
  },
  'A hold for a meeting or the charge of an Ask.',
  ['accountId', 'reference', 'minutes', 'tokenId', 'dailyMinuteCap', 'showBalance'],
);
const closed = obj({ captured: bool('Whether the hold ended captured (charged).') }, 'The hold after the move.');
const accountRef = obj({ accountId }, 'One account.');
/** What every pipeline job carries, with its step; `fields` and `required` add the step's own. */
const jobPayload = (
  step: P.PipelineStep,
  what: string,
  fields: Record<string, JsonSchema>,
  required: string[],
): JsonSchema =>
  obj(
    {
      jobId,
      step: oneOf([step], 'The step.'),
      recordingId,
      accountId,
      attempt: int('Attempt number, from 1.', { minimum: 1 }),
      ...fields,
    },
    what,
    ['jobId', 'step', 'recordingId', 'accountId', 'attempt', ...required],
  );
const SPEND_REFUSALS = ['INSUFFICIENT_MINUTES', 'TOKEN_DAILY_CAP', 'DAILY_LIMIT_REACHED'] as const;

type EntryInput<Pl, R> = Omit<BusEntry<Pl, R>, 'kind' | 'versions' | 'version' | 'refusals'> & {
  payload: JsonSchema;
  reply?: JsonSchema;
  refusals?: BusEntry['refusals'];
};

function entry<Pl, R, K extends BusKind>(kind: K, e: EntryInput<Pl, R>): BusEntry<Pl, R> & { kind: K } {
  const { payload, reply, refusals = [], ...rest } = e;
  return { ...rest, kind, version: 1, versions: { 1: reply ? { payload, reply } : { payload } }, refusals };
}
/** A request/reply entry; `Pl` and `R` are the payload and reply types its schemas describe. */
const request = <Pl, R>(e: EntryInput<Pl, R> & { reply: JsonSchema }) => entry<Pl, R, 'request'>('request', e);
/** A fact (the owner publishes, users consume) in a stream. */
const fact = <Pl>(e: EntryInput<Pl, never> & { stream: BusStream }) =>
  entry<Pl, never, 'fact'>('fact', e) as BusEntry<Pl, never> & { kind: 'fact'; stream: BusStream };
/** A job (users publish, the owner does it) in a stream. */
const job = <Pl>(e: EntryInput<Pl, never> & { stream: BusStream }) =>
  entry<Pl, never, 'job'>('job', e) as BusEntry<Pl, never> & { kind: 'job'; stream: BusStream };

export const BUS = {
  // ---- account: the wallet ----
  walletCredit: request<P.WalletCredit, { balanceMinutes: number }>({
    name: 'walletCredit',
    subject: 'account.wallet.credit',
    owner: 'account',
    users: ['gateway'],
    description: 'Adds minutes to a wallet (trial, grant, purchase); idempotent by reference.',
    payload: obj(
      {
        accountId,
        minutes: int('Minutes to add (0 opens an empty wallet).', { minimum: 0 }),
        kind: oneOf(CREDIT_KINDS, 'Why the minutes come.'),
        reference: id('Idempotency reference.'),
      },
      'A credit.',
    ),
    reply: obj({ balanceMinutes: num('The balance after the credit.') }, 'The balance.'),
  }),
  walletHold: request<P.WalletSpend, { held: boolean; replay: boolean }>({
    name: 'walletHold',
    subject: 'account.wallet.hold',
    owner: 'account',
    users: ['recordings'],
    description: "Holds a meeting's price until its transcript is ready; idempotent by reference.",
    payload: spend,
    reply: obj(
      {
        held: d({ enum: [true, false] }, 'True once held; false only for a dry run that would be admitted.'),
        replay: bool('The hold existed already.'),
      },
      'The hold.',
    ),
    refusals: SPEND_REFUSALS,
  }),
  walletCapture: request<P.WalletClose, { captured: boolean }>({
    name: 'walletCapture',
    subject: 'account.wallet.capture',
    owner: 'account',
    users: ['recordings'],
    description: 'Charges a held meeting (its transcript is ready); idempotent.',
    payload: obj(
      {
        accountId,
        reference: id('The hold (meeting id).'),
        minutes: int('Minutes to charge when fewer than held.', { minimum: 0 }),
      },
      'A capture.',
      ['accountId', 'reference'],
    ),
    reply: closed,
    // No hold has that reference (yet: a hold whose answer was lost may land later).
    refusals: ['NOT_FOUND'],
  }),
  walletRelease: request<P.WalletClose, { captured: boolean }>({
    name: 'walletRelease',
    subject: 'account.wallet.release',
    owner: 'account',
    users: ['recordings'],
    description: 'Lets go of a hold (transcription failed, or the meeting was deleted first); idempotent.',
    payload: obj({ accountId, reference: id('The hold (meeting id).') }, 'A release.'),
    reply: closed,
    refusals: ['NOT_FOUND'],
  }),
  walletCharge: request<P.WalletSpend, { charged: boolean; replay: boolean }>({
    name: 'walletCharge',
    subject: 'account.wallet.charge',
    owner: 'account',
    users: ['ask'],
    description: 'Charges an Ask; idempotent by reference (the Ask id).',
    payload: spend,
    reply: obj(
      {
        charged: d({ enum: [true, false] }, 'True once charged; false only for a dry run that would be admitted.'),
        replay: bool('The charge existed already.'),
      },
      'The charge.',
    ),
    refusals: SPEND_REFUSALS,
  }),
  walletStaleHolds: request<P.StaleHoldsQuery, { holds: P.StaleHold[] }>({
    name: 'walletStaleHolds',
    subject: 'account.wallet.stale-holds',
    owner: 'account',
    users: ['recordings'],
    description: 'Open holds older than a given age, a page at a time (the hold reconciler).',
    payload: obj(
      {
        olderThanSeconds: int('Minimum age of a hold.', { minimum: 0 }),
        limit: int('Page size.', { minimum: 1, maximum: 500 }),
        after: obj(
          { createdAt: dateTime('Creation time of the last hold seen.'), reference: id('Its reference.') },
          'Where the previous page ended.',
        ),
      },
      'A page request.',
      ['olderThanSeconds'],
    ),
    reply: obj(
      {
        holds: list(
          obj(
            { accountId, reference: id('The hold reference.'), createdAt: dateTime('When it was made.') },
            'One open hold.',
          ),
          'Oldest first.',
        ),
      },
      'A page of holds.',
    ),
  }),
  // ---- account: settings and memory ----
  settingsGet: request<P.AccountRef, P.MeetingSettings>({
    name: 'settingsGet',
    subject: 'account.settings.get',
    owner: 'account',
    users: ['recordings'],
    description: 'What a new meeting needs from the account: naming mode and other settings, account keyterms.',
    payload: accountRef,
    reply: obj(
      {
        settings: obj(
          {
            speakerNamingMode: oneOf(NAMING_MODES, 'Speaker naming mode.'),
            memoryLearningEnabled: bool('Whether memory learns from new meetings.'),
            summaryEmailEnabled: bool('Whether summary emails are sent.'),
            uiLocale: oneOf(UI_LOCALES, 'Language of the app and emails.'),
            deleteAudioAfterDigest: bool(
              "Whether a meeting's audio is deleted once its digest is ready (the app's setting); absent from an older account service: kept.",
            ),
          },
          'The account settings.',
          ['speakerNamingMode', 'memoryLearningEnabled', 'summaryEmailEnabled', 'uiLocale'],
        ),
        keyterms: texts('The account keyterms.'),
      },
      'Settings and keyterms.',
    ),
  }),
  memoryLearn: request<P.MemoryLearn, P.MemoryLearned>({
    name: 'memoryLearn',
    subject: 'account.memory.learn',
    owner: 'account',
    // No service asks: the account learns from digestCreated itself. Operators (and tests) teach memory directly here.
    users: [],
    description:
      "Memory notes from one finished meeting, once per meeting (what the account learns from a meeting's first digest).",
    payload: obj(
      {
        accountId,
        meetingId: recordingId,
        people: texts('People named.'),
        terms: texts('Terms used.'),
        topics: texts('Topics.'),
      },
      'What a meeting teaches.',
    ),
    reply: obj(
      {
        applied: bool('Whether notes were learned.'),
        replay: bool('The meeting was learned from before.'),
        added: int('New notes.', { minimum: 0 }),
        strengthened: int('Notes that gained a meeting.', { minimum: 0 }),
      },
      'What was learned.',
    ),
  }),
  memoryNotes: request<P.AccountRef, { items: { text: string }[] }>({
    name: 'memoryNotes',
    subject: 'account.memory.notes',
    owner: 'account',
    users: ['recordings'],
    description: 'The memory notes a new digest reads.',
    payload: accountRef,
    reply: obj({ items: list(obj({ text: str('The note.') }, 'One note.'), 'The notes.') }, 'Notes.'),
  }),
  // ---- gateway: identity ----
  accountContact: request<P.AccountRef, P.AccountContact>({
    name: 'accountContact',
    subject: 'access.account.contact',
    owner: 'gateway',
    users: ['account'],
    description: "How to reach an account's owner (the summary email); the gateway's access schema owns identity.",
    payload: accountRef,
    reply: obj(
      { email: strOrNull('Email address, or null.'), displayName: strOrNull('Display name, or null.') },
      'Contact.',
    ),
    refusals: ['NOT_FOUND'],
  }),
  // ---- series ----
  seriesResolve: request<P.AccountRef & { seriesId: string }, P.ResolvedSeries>({
    name: 'seriesResolve',
    subject: 'series.series.resolve',
    owner: 'series',
    users: ['recordings'],
    description: 'A series as an account reaches it (owner or member), with what meetings filed in it copy.',
    payload: obj({ accountId, seriesId: id('The series.') }, 'Which series, for whom.'),
    reply: obj(
      {
        id: id('The series.'),
        name: str('Its name.'),
        titleStyle: oneOf(TITLE_STYLES, 'How meeting titles are made.'),
        dateCalendar: oneOf(DATE_CALENDARS, 'Calendar of dates in titles.'),
        access: oneOf(ACCESS_ROLES, 'How the account reaches it.'),
        keyterms: texts('Series keyterms.'),
        inheritAccountKeyterms: bool('Whether the account keyterms apply too.'),
      },
      'The series.',
    ),
    refusals: ['NOT_FOUND'],
  }),
  seriesEmailList: request<P.AccountRef & { seriesId: string }, { emails: string[] }>({
    name: 'seriesEmailList',
    subject: 'series.email-list.read',
    owner: 'series',
    users: ['account'],
    description:
      "A series' email list, for its owner only (a member or a stranger: NOT_FOUND); the summary email of the app.",
    payload: obj({ accountId, seriesId: id('The series.') }, 'Which series, for whom.'),
    reply: obj({ emails: list(str('An address.'), 'The list, in saved order.', { maxItems: 50 }) }, 'The list.'),
    refusals: ['NOT_FOUND'],
  }),
  seriesMembersAdd: request<P.SeriesMember, P.SeriesMember & { added: boolean }>({
    name: 'seriesMembersAdd',
    subject: 'series.members.add',
    owner: 'series',
    users: ['gateway'],
    description: "The admin API's member join.",
    payload: obj({ seriesId: id('The series.'), accountId }, 'Who joins what.'),
    reply: obj(
      { seriesId: id('The series.'), accountId, added: bool('False when already a member.') },
      'The membership.',
    ),
    refusals: ['NOT_FOUND'],
  }),
  // ---- recordings: what other services read of meetings ----
  seriesStats: request<{ seriesIds: string[] }, P.SeriesStatsReply>({
    name: 'seriesStats',
    subject: 'recordings.series.stats',
    owner: 'recordings',
    users: ['series'],
    description: 'Finished meetings per series (meetingCount, lastRecordedAt); the asker checks access.',
    payload: obj({ seriesIds: list(id('A series.'), 'Series to count.', { maxItems: 1000 }) }, 'Which series.'),
    reply: obj(
      {
        stats: d(
          {
            type: 'object',
            additionalProperties: obj(
              {
                meetingCount: int('Finished meetings.', { minimum: 0 }),
                lastRecordedAt: strOrNull('Newest recordedAt, or null.'),
              },
              'Counts.',
            ),
          },
          'Per series id.',
        ),
      },
      'Counts.',
    ),
  }),
  seriesChanged: request<P.SeriesChange, { updated: number }>({
    name: 'seriesChanged',
    subject: 'recordings.series.changed',
    owner: 'recordings',
    users: ['series'],
    description: "A series was renamed or restyled: meetings' copies follow (no meeting event).",
    payload: obj(
      {
        seriesId: id('The series.'),
        name: str('New name.', { minLength: 1, maxLength: 60 }),
        titleStyle: oneOf(TITLE_STYLES, 'Title style.'),
        dateCalendar: oneOf(DATE_CALENDARS, 'Date calendar.'),
      },
      'The series as it is now.',
    ),
    reply: obj({ updated: int('Meetings updated.', { minimum: 0 }) }, 'Result.'),
  }),
  seriesDeleted: request<{ seriesId: string }, { updated: number }>({
    name: 'seriesDeleted',
    subject: 'recordings.series.deleted',
    owner: 'recordings',
    users: ['series'],
    description:
      'A series is being deleted: its meetings (trashed ones too) move out of it, as if never filed (no meeting event); idempotent.',
    payload: obj({ seriesId: id('The series.') }, 'Which series.'),
    reply: obj({ updated: int('Meetings moved out.', { minimum: 0 }) }, 'Result.'),
  }),
  askMeeting: request<{ recordingId: string }, P.AskMeetingReply>({
    name: 'askMeeting',
    subject: 'recordings.ask.meeting',
    owner: 'recordings',
    users: ['ask'],
    principal: true,
    description: 'A meeting the signed caller can reach, with its transcript and digest once READY.',
    payload: obj({ recordingId }, 'Which meeting.'),
    reply: obj(
      {
        status: oneOf(RECORDING_STATUSES, 'The meeting status.'),
        meeting: d({ anyOf: [askMeetingDoc, { type: 'null' }] }, 'The meeting once READY, else null.'),
      },
      'The meeting.',
    ),
    refusals: ['NOT_FOUND'],
  }),
  meetingSummary: request<{ recordingId: string }, P.MeetingSummary>({
    name: 'meetingSummary',
    subject: 'recordings.summary.read',
    owner: 'recordings',
    users: ['account'],
    principal: true,
    description:
      "A READY meeting's digest as the signed caller reaches it (its own or a joined series'): the app's summary email.",
    payload: obj({ recordingId }, 'Which meeting.'),
    reply: obj(
      {
        recordingId,
        displayTitle: str('The title as the app shows it.'),
        language: str('Digest language.', { maxLength: 16 }),
        sections: list(obj({ kind: str('Section kind.') }, 'A digest section.'), 'Digest sections.', { maxItems: 100 }),
        speakers,
        recordedAt: dateTime('When the meeting was recorded.'),
        seriesId: strOrNull('The series it is in, or null.'),
        access: oneOf(ACCESS_ROLES, 'How the caller reaches it.'),
      },
      'The digest.',
    ),
    refusals: ['NOT_FOUND', 'NOT_READY'],
  }),
  askSeries: request<P.AskSeriesQuery, P.AskSeriesReply>({
    name: 'askSeries',
    subject: 'recordings.ask.series',
    owner: 'recordings',
    users: ['ask'],
    principal: true,
    description:
      'The finished meetings of a series the signed caller can reach, newest first, transcripts within a budget.',
    payload: askSeriesQuery,
    reply: obj(
      {
        finishedCount: int('Finished meetings in the series.', { minimum: 0 }),
        meetings: list(askMeetingDoc, 'Newest first.'),
      },
      'The meetings.',
    ),
    refusals: ['NOT_FOUND'],
  }),
  askMeetingPrice: request<{ recordingId: string }, P.AskMeetingPriceReply>({
    name: 'askMeetingPrice',
    subject: 'recordings.ask.meeting.price',
    owner: 'recordings',
    users: ['ask'],
    principal: true,
    description:
      "A meeting Ask's price input, as askMeeting would read it (the quote): the characters of its transcript as read once READY. Kept one release for an ask service of the last release (this release's quotes are answered by recordings itself).",
    payload: obj({ recordingId }, 'Which meeting.'),
    reply: obj(
      {
        status: oneOf(RECORDING_STATUSES, 'The meeting status.'),
        charsRead: d(
          { type: ['integer', 'null'], minimum: 0 },
          'Characters an Ask reads (askCharsRead) once READY with its transcript and digest, else null.',
        ),
      },
      'The price input.',
    ),
    refusals: ['NOT_FOUND'],
  }),
  askSeriesPrice: request<P.AskSeriesQuery, P.AskSeriesPriceReply>({
    name: 'askSeriesPrice',
    subject: 'recordings.ask.series.price',
    owner: 'recordings',
    users: ['ask'],
    principal: true,
    description:
      "A series Ask's price input, as askSeries would read it with the same query (the quote): counted, not sent. Kept one release for an ask service of the last release (this release's quotes are answered by recordings itself).",
    payload: askSeriesQuery,
    reply: obj(
      {
        finishedCount: int('Finished meetings in the series.', { minimum: 0 }),
        meetingCount: int('Meetings askSeries would return.', { minimum: 0 }),
        charsRead: int('Characters an Ask reads of them (askCharsRead).', { minimum: 0 }),
      },
      'The price input.',
    ),
    refusals: ['NOT_FOUND'],
  }),
  // ---- ask: what recordings asks of it ----
  askForgetMeeting: request<P.AccountRef & { recordingId: string }, { deleted: number }>({
    name: 'askForgetMeeting',
    subject: 'ask.meeting.forget',
    owner: 'ask',
    users: ['recordings'],
    description: 'A meeting is purged from the trash for good: its questions and answers go too; idempotent.',
    payload: obj({ accountId, recordingId }, 'Whose meeting.'),
    reply: obj({ deleted: int('Questions removed.', { minimum: 0 }) }, 'Result.'),
  }),
  // ---- recordings: facts ----
  recordingEvent: fact<P.RecordingEvent>({
    name: 'recordingEvent',
    subject: 'recordings.recording.>',
    owner: 'recordings',
    users: ['events'],
    stream: 'RECORDINGS',
    subjectOf: (e) => `recordings.${e.type}`,
    description: 'A public meeting event (one subject per event type), copied into the events feed.',
    payload: obj(
      {
        id: id('Event id; consumers de-duplicate by it.'),
        type: oneOf(EVENT_TYPES, 'What happened.'),
        recordingId,
        accountId,
        tokenId: strOrNull('The token that made the meeting, or null.'),
        seriesId: strOrNull('The series at the time, or null.'),
        occurredAt: dateTime('When it happened.'),
        data: obj(
          {
            status: oneOf(RECORDING_STATUSES, 'Status with the event.'),
            error: d({}, 'recording.failed: the failure.'),
            change: oneOf(UPDATE_CHANGES, 'recording.updated: what changed.'),
          },
          'Facts of the event.',
          ['status'],
        ),
        meetingSeq: int(
          "The event's place among its meeting's events (from 1, no gaps), stamped by recordings; the feed orders by it.",
          { minimum: 1 },
        ),
      },
      'A meeting event.',
      ['id', 'type', 'recordingId', 'accountId', 'tokenId', 'seriesId', 'occurredAt', 'data'],
    ),
  }),
  digestCreated: fact<P.DigestCreated>({
    name: 'digestCreated',
    subject: 'recordings.digest.created',
    owner: 'recordings',
    users: ['account'],
    stream: 'RECORDINGS',
    // An email may wait about an hour for an unreachable SMTP server (retries every 10 s).
    maxDeliver: 400,
    consumerFilter: 'recordings.digest.>',
    description: "A meeting's first digest, with content (internal: memory notes and the summary email).",
    payload: obj(
      {
        id: id('Fact id.'),
        version: oneOf([1], 'Shape version.'),
        recordingId,
        accountId,
        title: strOrNull('Meeting title, else the digest title.'),
        displayTitle: str('The title as the app shows it.'),
        kind: str('Meeting kind.'),
        language: str('Digest language.', { maxLength: 16 }),
        sections: list(obj({ kind: str('Section kind.') }, 'A digest section.'), 'Digest sections.', { maxItems: 100 }),
        speakers: list(
          obj({ label: str('Voice label.'), name: strOrNull('Given name, or null.') }, 'One voice.'),
          'Voices.',
          { maxItems: 100 },
        ),
        recordedAt: dateTime('When the meeting was recorded.'),
        occurredAt: dateTime('When the digest was made.'),
      },
      'A first digest.',
    ),
  }),
  // ---- pipeline: jobs ----
  transcribeJob: job<P.PipelineJob>({
    name: 'transcribeJob',
    subject: 'pipeline.job.transcribe',
    owner: 'pipeline',
    users: ['recordings', 'pipeline'],
    stream: 'PIPELINE',
    description: "Transcribe a meeting's audio (recordings asks; the pipeline re-sends for an automatic retry).",
    payload: jobPayload(
      'transcribe',
      'A transcription job.',
      { audioKey: str('Audio object key.'), keyterms: texts('Keyterms for the recognizer.') },
      ['audioKey'],
    ),
  }),
  generateJob: job<P.PipelineJob>({
    name: 'generateJob',
    subject: 'pipeline.job.generate',
    owner: 'pipeline',
    users: ['recordings', 'pipeline'],
    stream: 'PIPELINE',
    description: "Write a meeting's digest from its transcript as read now.",
    payload: jobPayload(
      'generate',
      'A digest job.',
      {
        transcriptKey: str('Transcript object key.'),
        kind: oneOf(RECORDING_KINDS, 'Meeting kind (digest template).'),
        outputLanguage: str('Digest language wish.'),
        memory: texts('Memory notes the digest reads.'),
        regenerate: bool('A regeneration of a READY meeting.'),
      },
      ['transcriptKey'],
    ),
  }),
  timerSet: job<P.TimerRequest>({
    name: 'timerSet',
    subject: 'pipeline.timer.set',
    owner: 'pipeline',
    users: ['recordings'],
    stream: 'PIPELINE',
    description: 'Set a timer (naming deadline); it fires back as pipeline.result.timer.',
    payload: obj(
      {
        timerId: id('Timer id (idempotency).'),
        recordingId,
        kind: oneOf(['naming_deadline'], 'Timer kind.'),
        runAt: dateTime('When it fires.'),
        ref: str('Echoed back when it fires.'),
      },
      'A timer.',
    ),
  }),
  // ---- pipeline: results back to recordings ----
  jobStarted: fact<P.JobStarted>({
    name: 'jobStarted',
    subject: 'pipeline.result.started',
    owner: 'pipeline',
    users: ['recordings'],
    stream: 'PIPELINE',
    description: 'A job attempt started.',
    payload: obj({ recordingId, jobId, step: oneOf(PIPELINE_STEPS, 'The step.') }, 'A start.'),
  }),
  jobTranscribed: fact<P.JobTranscribed>({
    name: 'jobTranscribed',
    subject: 'pipeline.result.transcribed',
    owner: 'pipeline',
    users: ['recordings'],
    stream: 'PIPELINE',
    description: 'A transcript is ready in the audio store.',
    payload: obj({ recordingId, jobId, transcriptKey: str('Transcript object key.') }, 'A transcript.'),
  }),
  jobGenerated: fact<P.JobGenerated>({
    name: 'jobGenerated',
    subject: 'pipeline.result.generated',
    owner: 'pipeline',
    users: ['recordings'],
    stream: 'PIPELINE',
    description: 'A digest is ready in the audio store.',
    payload: obj({ recordingId, jobId, digestKey: str('Digest object key.') }, 'A digest.'),
  }),
  jobFailed: fact<P.JobFailed>({
    name: 'jobFailed',
    subject: 'pipeline.result.failed',
    owner: 'pipeline',
    users: ['recordings'],
    stream: 'PIPELINE',
    description: 'A job attempt failed; final when no automatic retry follows.',
    payload: obj(
      {
        recordingId,
        jobId,
        step: oneOf(PIPELINE_STEPS, 'The step.'),
        code: oneOf(FAILURE_CODES, 'Why.'),
        final: bool('No automatic retry follows.'),
      },
      'A failure.',
    ),
  }),
  timerFired: fact<P.TimerFired>({
    name: 'timerFired',
    subject: 'pipeline.result.timer',
    owner: 'pipeline',
    users: ['recordings'],
    stream: 'PIPELINE',
    description: 'A timer fired (naming deadline).',
    payload: obj(
      { recordingId, kind: oneOf(['naming_deadline'], 'Timer kind.'), ref: str('The ref it was set with.') },
      'A fired timer.',
    ),
  }),
} as const satisfies Record<string, BusEntry<any, any>>;

export type BusName = keyof typeof BUS;
export const BUS_ENTRIES: readonly BusEntry<unknown, unknown>[] = Object.values(BUS) as BusEntry<unknown, unknown>[];

/** The job entry of each pipeline step. */
export const JOB_OF_STEP = { transcribe: BUS.transcribeJob, generate: BUS.generateJob } as const;

/** One durable consumer: the service that runs it, its stream, and the entries it reads. */
export interface BusConsumer {
  durable: string;
  service: BusService;
  stream: BusStream;
  entries: readonly BusEntry<any, any>[];
}

const consumer = (durable: string, service: BusService, entries: readonly BusEntry<any, any>[]): BusConsumer => ({
  durable,
  service,
  stream: entries[0].stream!,
  entries,
});

/**
 * Every durable consumer. A service's NATS rights to create, read, pull and ack a consumer are
 * generated from this list (stream and durable name), and `consume` refuses a durable not listed
 * for its service: a service's credentials cannot read another's stream or durable.
 */
export const BUS_CONSUMERS: readonly BusConsumer[] = [
  consumer('events', 'events', [BUS.recordingEvent]),
  consumer('account-digests', 'account', [BUS.digestCreated]),
  consumer('pipeline-transcribe', 'pipeline', [BUS.transcribeJob]),
  consumer('pipeline-generate', 'pipeline', [BUS.generateJob]),
  consumer('pipeline-timers', 'pipeline', [BUS.timerSet]),
  consumer('recordings-results', 'recordings', [
    BUS.jobStarted,
    BUS.jobTranscribed,
    BUS.jobGenerated,
    BUS.jobFailed,
    BUS.timerFired,
  ]),
];
