/**
 * JSON Schemas of the admin API (ARCHITECTURE.md section 7) and of the routes the app asks the
 * gateway and the services for the signed-in owner: bodies and answers. Not part of openapi.json.
 */
import {
  APP_PURCHASE_PACKS,
  LIMITS,
  NAMING_MODES,
  OUTPUT_LANGUAGES,
  RECORDING_KINDS,
  SCOPES,
  SWITCHES,
  TOKEN_EXPIRY_DAYS,
  UI_LOCALES,
} from '../catalog';
import type { JsonSchema } from '../schema-helpers';
import { searchPageSchema } from '../schemas/recordings.schemas';

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});
const open = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({
  type: 'object',
  properties,
  required,
});
const bool = { type: 'boolean' };
const str = { type: 'string' };
const nullableStr = { type: ['string', 'null'] };
/** An object whose fields the answer does not promise here (a dead letter, a list item of another package). */
const anyObject = { type: 'object' };

const switches = closed(Object.fromEntries(SWITCHES.map((s) => [s, bool])));
const features = closed({ series: bool, ask: bool, videoUpload: bool, memory: bool });
/** No control character (C0, DEL, C1): a name is written on one line, in pages, Markdown and logs. */
const NO_CONTROL = '^[^\\u0000-\\u001F\\u007F-\\u009F]*$';
const displayName = {
  type: ['string', 'null'],
  maxLength: 200,
  pattern: NO_CONTROL,
  description: 'At most 200 characters, none of them a control character (a line break, a tab).',
};
/** The most minutes one purchase may add. */
const MAX_GRANT_MINUTES = 10_000_000;
/** The most an opening balance may be: one ledger entry (a Postgres integer). */
const MAX_OPENING_MINUTES = 2_147_483_647;
/** An email address as every form and body takes it: something@somewhere, no spaces. */
/**
 * One address, as people type it: something, @, a domain; no spaces and none of the characters
 * that only quoted or display forms use (`<>()[]\,;:"`), so `x@example.com<script>` is refused.
 */
export const emailPattern = '^[^\\s@<>()\\[\\]\\\\,;:"]+@[^\\s@<>()\\[\\]\\\\,;:"]+$';
const email = { type: ['string', 'null'], maxLength: 320, pattern: emailPattern };

export const createAccountBody = closed({
  displayName,
  email,
  balanceMinutes: { type: 'integer', minimum: 0, maximum: MAX_OPENING_MINUTES },
  developerMode: bool,
  approved: bool,
  trial: bool,
  switches,
  features,
});

export const patchAccountBody = closed({
  displayName,
  email,
  developerMode: bool,
  approved: bool,
  switches,
  features,
  trial: bool,
});

export const minutesBody = closed({ minutes: { type: 'integer', minimum: 1, maximum: MAX_GRANT_MINUTES } }, [
  'minutes',
]);
/** A purchase in the app: one of the packs. */
export const appPurchaseBody = closed({ minutes: { enum: [...APP_PURCHASE_PACKS] } }, ['minutes']);

export const createTokenBody = closed(
  {
    name: {
      type: 'string',
      minLength: 1,
      maxLength: 100,
      pattern: '^(?=.*\\S)[^\\u0000-\\u001F\\u007F-\\u009F]*$',
      description: 'At most 100 characters, not only spaces, none of them a control character.',
    },
    scopes: { type: 'array', minItems: 1, uniqueItems: true, items: { enum: [...SCOPES] } },
    expiresInDays: { enum: [...TOKEN_EXPIRY_DAYS, null] },
    dailyMinuteCap: { type: ['integer', 'null'], minimum: LIMITS.dailyMinuteCapMin, maximum: LIMITS.dailyMinuteCapMax },
  },
  ['name', 'scopes'],
);

export const flagsBody = closed({ tokensDisabled: bool }, ['tokensDisabled']);
export const seriesMemberBody = closed({ accountId: { type: 'string', minLength: 1, maxLength: 64 } }, ['accountId']);
export const inviteBody = closed({ email: { type: 'string', maxLength: 320, pattern: emailPattern } });

/** A meeting's changes the app makes: title and series. */
export const patchRecordingBody = closed({
  title: { type: ['string', 'null'], maxLength: 200 },
  seriesId: nullableStr,
});
/** The naming sheet: speaker labels to names. */
export const speakersBody = closed({ names: { type: 'object', additionalProperties: str } }, ['names']);
/** "These two voices are one person" on the naming sheet: `from`'s turns become `into`'s. */
const voiceLabel = { type: 'string', minLength: 1, maxLength: 100 };
export const mergeVoicesBody = closed({ from: voiceLabel, into: voiceLabel }, ['from', 'into']);
export const voicesMergedAnswer = open({
  id: str,
  status: str,
  speakers: { type: 'array', items: open({ label: str, name: nullableStr }) },
});
/** The naming sheet opened: the meeting's status and naming (its deadline moved later, or not). */
export const namingSheetOpenedAnswer = open({
  id: str,
  status: str,
  naming: {
    type: ['object', 'null'],
    properties: { url: str, deadline: nullableStr },
    required: ['url', 'deadline'],
  },
  deadlineMoved: bool,
});
export const segmentBody = closed({ text: { type: 'string', pattern: '\\S' } }, ['text']);
export const replayBody = closed(
  {
    payloadSha256: {
      type: 'string',
      pattern: '^[0-9a-f]{64}$',
      description:
        "the letter's payloadSha256 as GET /dead-letters/{seq} shows it: read the payload before replaying it",
    },
    operator: {
      type: 'string',
      pattern: '^\\S(.{0,98}\\S)?$',
      description: 'who asks for the replay, 1 to 100 characters',
    },
  },
  ['payloadSha256', 'operator'],
);
export const developerModeBody = closed({ on: bool }, ['on']);
export const profileBody = closed({ displayName }, ['displayName']);
export const appSettingsBody = {
  ...closed({
    uiLocale: { enum: [...UI_LOCALES] },
    speakerNamingMode: { enum: [...NAMING_MODES] },
    memoryLearningEnabled: bool,
    summaryEmailEnabled: bool,
    deleteAudioAfterDigest: bool,
  }),
  minProperties: 1,
};

// Answers.
export const accountView = open({
  id: str,
  displayName: nullableStr,
  email: nullableStr,
  developerMode: bool,
  approved: bool,
  trial: bool,
  switches: open(Object.fromEntries(SWITCHES.map((s) => [s, bool]))),
  features: open({ series: bool, ask: bool, videoUpload: bool, memory: bool }),
});
export const accountAnswer = open({ account: accountView });
export const balanceAnswer = open({ balanceMinutes: { type: 'integer' } });
export const tokenView = open({
  id: str,
  name: str,
  scopes: { type: 'array', items: { enum: [...SCOPES] } },
  expiresAt: nullableStr,
  dailyMinuteCap: { type: ['integer', 'null'] },
});
export const createdTokenAnswer = open({ token: tokenView, value: str });
export const revokedAnswer = open({ id: str, revoked: { const: true } });
export const flagsAnswer = open({ flags: open({ tokensDisabled: bool }) });
export const inviteAnswer = open({ invite: open({ url: str, expiresAt: str }) });
export const seriesMemberAnswer = anyObject;
export const recordingChangeAnswer = open({ id: str, status: str });
export const recordingDeletedAnswer = anyObject;
export const recordingRestoredAnswer = open({ id: str, restored: { const: true } });
export const recordingPatchedAnswer = open({ id: str, title: nullableStr, seriesId: nullableStr });
export const segmentEditedAnswer = open({ id: str, index: { type: 'integer' } });
/** The upload's answer: `schemaVersion` as the public submit's (the mounting helper adds it). */
export const submitAnswer = open({ schemaVersion: { const: 1 }, recording: anyObject });
export const deadLetterPage = open({
  items: { type: 'array', items: anyObject },
  total: { type: 'integer' },
  nextAfter: { type: 'integer' },
});
export const deadLetterReplays = open({ items: { type: 'array', items: anyObject } });
export const deadLetterAnswer = open({ letter: anyObject });
export const replayedAnswer = open({
  seq: { type: 'integer' },
  subject: str,
  deadLetteredBy: str,
  askedBy: str,
  replayed: { const: true },
});
export const developerModeAnswer = open({ developerMode: bool });
export const tokenListAnswer = open({
  tokens: { type: 'array', items: open({ ...(tokenView.properties as Record<string, JsonSchema>), createdAt: str }) },
});
export const sessionListAnswer = open({
  sessions: { type: 'array', items: open({ id: str, device: str, createdAt: str, lastSeenAt: str, current: bool }) },
});
export const appSettingsAnswer = open({
  settings: open({
    speakerNamingMode: { enum: [...NAMING_MODES] },
    memoryLearningEnabled: bool,
    summaryEmailEnabled: bool,
    uiLocale: { enum: [...UI_LOCALES] },
    deleteAudioAfterDigest: bool,
  }),
});
export const walletAnswer = open({
  balanceMinutes: { type: 'integer' },
  heldMinutes: { type: 'integer' },
  entries: {
    type: 'array',
    items: open({ kind: str, creditKind: nullableStr, minutes: { type: 'integer' }, createdAt: str }),
  },
  /** The packs the app sells here; empty when this install sells none (minutes come from its operator). */
  purchasePacks: { type: 'array', items: { type: 'integer' } },
});

/** Series sharing, in the app only (the contract: invites, members and the email list stay in the app). */
const seriesInviteView = open({ id: str, seriesId: str, url: str, expiresAt: str });
export const seriesInviteAnswer = open({ invite: seriesInviteView });
export const seriesInvitePreviewAnswer = open({
  invite: open({ seriesId: str, seriesName: str, ownerName: nullableStr, expiresAt: str, alreadyIn: bool }),
});
export const seriesInviteAcceptedAnswer = open({ seriesId: str, joined: bool });
export const seriesMembersAnswer = open({
  members: { type: 'array', items: open({ accountId: str, displayName: nullableStr, joinedAt: str }) },
  invites: { type: 'array', items: open({ idPrefix: str, expiresAt: str }) },
});
/**
 * The owner's series with the start values of a meeting filed in them (the upload page's series
 * choice): owned series only, by name as listReadableSeries orders them; no meeting counts.
 */
export const ownedSeriesAnswer = open({
  series: {
    type: 'array',
    maxItems: LIMITS.seriesPerAccount,
    items: open({
      id: str,
      name: str,
      defaultKind: { enum: [...RECORDING_KINDS] },
      defaultOutputLanguage: { enum: [...OUTPUT_LANGUAGES] },
    }),
  },
});
export const seriesMemberRemovedAnswer = open({ seriesId: str, accountId: str, removed: { const: true } });
/** A series' email list: where its owner sends summaries; at most 50 addresses, none twice. */
export const seriesEmailListBody = closed(
  {
    emails: {
      type: 'array',
      maxItems: 50,
      uniqueItems: true,
      items: { type: 'string', minLength: 3, maxLength: 320, pattern: emailPattern },
    },
  },
  ['emails'],
);
export const seriesEmailListAnswer = open({ emails: { type: 'array', items: str } });
/** Email a meeting's summary: to the signed-in person's own address, or to the series' email list (owner). */
export const emailSummaryBody = closed({ to: { enum: ['me', 'series'] } }, ['to']);
export const emailSummaryAnswer = open({
  /** sent; no-smtp (the service has no mail server); no-email (no address on the account); empty-list. */
  outcome: { enum: ['sent', 'no-smtp', 'no-email', 'empty-list'] },
  recipients: { type: 'integer', minimum: 0 },
});
export const seriesDeletedAnswer = open({ id: str, deleted: { const: true } });

/** The naming sheet of a meeting (the app's meeting page): its state, its voices with clips, its segments. */
export const meetingSheetAnswer = open({
  recording: anyObject,
  voices: {
    type: 'array',
    items: open({
      label: str,
      name: nullableStr,
      suggestion: nullableStr,
      clips: { type: 'array', items: open({ startMs: { type: 'integer' }, endMs: { type: 'integer' } }) },
    }),
  },
  segments: { type: 'array', items: anyObject },
  /** Names the account already gave (earlier meetings), suggested in the sheet's name fields. */
  knownNames: { type: 'array', items: str },
  /** Whether the meeting still has its audio (false once deleted after the digest, as the account's setting says). */
  audio: bool,
});
/** A meeting's audio as stored: the whole file, or the byte range asked for. */
export const meetingAudio = { type: 'string', format: 'binary' };
/** The person's earlier questions and answers on a meeting or a series (the app's Ask tab). */
export const earlierAsksAnswer = open({ items: { type: 'array', items: anyObject } });
/** The owner's trash: deleted meetings, newest deletion first, each with when it is purged for good. */
export const trashAnswer = open({
  trashDays: { type: 'integer', minimum: 1 },
  items: {
    type: 'array',
    items: open({
      id: str,
      title: nullableStr,
      status: str,
      kind: str,
      recordedAt: { type: 'string', format: 'date-time' },
      deletedAt: { type: 'string', format: 'date-time' },
      purgeAt: { type: 'string', format: 'date-time' },
    }),
  },
});

/** The app's search: the public search page, each item also with `atMs` (where its snippet was said; null from the digest or title). */
const searchItems = (searchPageSchema.properties as Record<string, JsonSchema>).items;
const searchItem = searchItems.items as JsonSchema;
export const appSearchAnswer: JsonSchema = {
  ...searchPageSchema,
  properties: {
    ...(searchPageSchema.properties as Record<string, JsonSchema>),
    items: {
      ...searchItems,
      items: {
        ...searchItem,
        properties: { ...(searchItem.properties as Record<string, JsonSchema>), atMs: { type: ['integer', 'null'] } },
      },
    },
  },
};
