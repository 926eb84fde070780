/**
 * The route tables beside the public one: the admin API (ARCHITECTURE.md section 7, under
 * `/admin/v1`) and the routes the app (services/web) asks the gateway and the services for the
 * signed-in owner. Not part of openapi.json; their operation types and validators are generated
 * from these tables exactly as the public routes' are (libs/contract/src/generated/operations.ts).
 */
import type { InternalRouteDef } from '../routes.types';
import type { JsonSchema } from '../schema-helpers';
import { APP_PURCHASE_KEY_PATTERN, LIMITS } from '../catalog';
import * as s from './admin.schemas';
import { searchRecordings, submitRecording } from '../routes/recordings.routes';

const pathParam = (
  name: string,
  schema: JsonSchema = { type: 'string', minLength: 1, maxLength: LIMITS.idMaxChars },
) => ({ name, in: 'path' as const, required: true, schema });
const id = pathParam('id');
/** An invite link's secret: 32 random bytes in base64url (256 bits). */
const inviteId = pathParam('id', { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' });
const idempotencyKey = { name: 'Idempotency-Key', in: 'header' as const, required: false, schema: { type: 'string' } };
/** The app's purchase form names itself once (a UUID made with the page): sent twice, it buys once. */
const purchaseKey = {
  name: 'Idempotency-Key',
  in: 'header' as const,
  required: true,
  schema: { type: 'string', pattern: APP_PURCHASE_KEY_PATTERN },
};
const body = (schema: JsonSchema) => ({ contentType: 'application/json' as const, required: false, schema });
const answer = (schema: JsonSchema, status = 200) => [{ status, schema, description: '' }];
/** The app's routes answer `schemaVersion` as the public ones do. */
const appAnswer = (schema: JsonSchema, status = 200) =>
  answer(
    {
      ...schema,
      properties: { schemaVersion: { const: 1 }, ...(schema.properties as object) },
      required: ['schemaVersion', ...((schema.required ?? []) as string[])],
    },
    status,
  );

type Def = Omit<InternalRouteDef, 'params' | 'service'> & Partial<Pick<InternalRouteDef, 'params' | 'service'>>;
const def = (d: Def): InternalRouteDef => ({ params: [], service: 'gateway', ...d });
/** A meeting operation the gateway forwards to recordings with an app principal. */
const toRecordings = (d: Omit<Def, 'forward'>, path: string): InternalRouteDef =>
  def({ ...d, forward: { service: 'recordings', path } });

/** The admin API, paths relative to `/admin/v1`. */
export const ADMIN_ROUTES: readonly InternalRouteDef[] = [
  def({
    operationId: 'adminCreateAccount',
    method: 'post',
    path: '/accounts',
    summary: 'Create an account',
    body: body(s.createAccountBody),
    responses: answer(s.accountAnswer, 201),
  }),
  def({
    operationId: 'adminGetAccount',
    method: 'get',
    path: '/accounts/{id}',
    summary: 'Read an account',
    params: [id],
    responses: answer(s.accountAnswer),
  }),
  def({
    operationId: 'adminUpdateAccount',
    method: 'patch',
    path: '/accounts/{id}',
    summary: 'Change an account',
    params: [id],
    body: body(s.patchAccountBody),
    responses: answer(s.accountAnswer),
  }),
  def({
    operationId: 'adminBuyMinutes',
    method: 'post',
    path: '/accounts/{id}/minutes',
    summary: 'Record a purchase of minutes',
    params: [id, idempotencyKey],
    body: body(s.minutesBody),
    responses: answer(s.balanceAnswer),
  }),
  def({
    operationId: 'adminCreateToken',
    method: 'post',
    path: '/accounts/{id}/tokens',
    summary: 'Make a token',
    params: [id],
    body: body(s.createTokenBody),
    responses: answer(s.createdTokenAnswer, 201),
  }),
  def({
    operationId: 'adminCreateInvite',
    method: 'post',
    path: '/accounts/{id}/invites',
    summary: 'Make an invite link',
    params: [id],
    body: body(s.inviteBody),
    responses: answer(s.inviteAnswer, 201),
  }),
  def({
    operationId: 'adminRevokeToken',
    method: 'delete',
    path: '/tokens/{id}',
    summary: 'Revoke a token',
    params: [id],
    responses: answer(s.revokedAnswer),
  }),
  def({
    operationId: 'adminSetFlags',
    method: 'put',
    path: '/flags',
    summary: 'Set the global flags',
    body: body(s.flagsBody),
    responses: answer(s.flagsAnswer),
  }),
  def({
    operationId: 'adminAddSeriesMember',
    method: 'post',
    path: '/series/{id}/members',
    summary: 'Add a member to a series',
    params: [id],
    body: body(s.seriesMemberBody),
    responses: answer(s.seriesMemberAnswer),
  }),
  toRecordings(
    {
      operationId: 'adminSubmitRecording',
      method: 'post',
      path: '/accounts/{id}/recordings',
      summary: 'Upload a meeting made in the app',
      params: [id, idempotencyKey],
      body: submitRecording.body,
      responses: answer(s.submitAnswer, 202),
    },
    '/internal/admin/recordings',
  ),
  toRecordings(
    {
      operationId: 'adminDeleteRecording',
      method: 'delete',
      path: '/recordings/{id}',
      summary: 'Delete a meeting',
      params: [id],
      responses: answer(s.recordingDeletedAnswer),
    },
    '/internal/admin/recordings/{id}',
  ),
  toRecordings(
    {
      operationId: 'adminRestoreRecording',
      method: 'post',
      path: '/recordings/{id}/restore',
      summary: 'Restore a meeting',
      params: [id],
      responses: answer(s.recordingRestoredAnswer),
    },
    '/internal/admin/recordings/{id}/restore',
  ),
  toRecordings(
    {
      operationId: 'adminUpdateRecording',
      method: 'patch',
      path: '/recordings/{id}',
      summary: 'Rename a meeting or change its series',
      params: [id],
      body: body(s.patchRecordingBody),
      responses: answer(s.recordingPatchedAnswer),
    },
    '/internal/admin/recordings/{id}',
  ),
  toRecordings(
    {
      operationId: 'adminNameSpeakers',
      method: 'put',
      path: '/recordings/{id}/speakers',
      summary: 'Name the speakers',
      params: [id],
      body: body(s.speakersBody),
      responses: answer(s.recordingChangeAnswer),
    },
    '/internal/admin/recordings/{id}/speakers',
  ),
  toRecordings(
    {
      operationId: 'adminEditSegment',
      method: 'patch',
      path: '/recordings/{id}/transcript/segments/{index}',
      summary: 'Edit a transcript segment',
      params: [id, pathParam('index', { type: 'string', pattern: '^\\d{1,9}$', description: 'a segment number' })],
      body: body(s.segmentBody),
      responses: answer(s.segmentEditedAnswer),
    },
    '/internal/admin/recordings/{id}/transcript/segments/{index}',
  ),
  toRecordings(
    {
      operationId: 'adminRegenerateDigest',
      method: 'post',
      path: '/recordings/{id}/regenerate',
      summary: 'Regenerate the digest',
      params: [id],
      responses: answer(s.recordingChangeAnswer),
    },
    '/internal/admin/recordings/{id}/regenerate',
  ),
  toRecordings(
    {
      operationId: 'adminRecheckRecording',
      method: 'post',
      path: '/recordings/{id}/recheck',
      summary: 'Check a meeting again',
      params: [id],
      responses: answer(s.recordingChangeAnswer),
    },
    '/internal/admin/recordings/{id}/recheck',
  ),
  def({
    operationId: 'adminListDeadLetters',
    method: 'get',
    path: '/dead-letters',
    summary: 'List dead letters',
    params: [
      {
        name: 'after',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 0, maximum: 999_999_999_999_999, default: 0 },
      },
      {
        name: 'limit',
        in: 'query',
        required: false,
        schema: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
      },
    ],
    responses: answer(s.deadLetterPage),
  }),
  def({
    operationId: 'adminListDeadLetterReplays',
    method: 'get',
    path: '/dead-letters/replays',
    summary: 'List the replays made',
    responses: answer(s.deadLetterReplays),
  }),
  def({
    operationId: 'adminReadDeadLetter',
    method: 'get',
    path: '/dead-letters/{seq}',
    summary: 'Read a dead letter',
    params: [pathParam('seq', seqSchema())],
    responses: answer(s.deadLetterAnswer),
  }),
  def({
    operationId: 'adminReplayDeadLetter',
    method: 'post',
    path: '/dead-letters/{seq}/replay',
    summary: 'Replay a dead letter',
    params: [pathParam('seq', seqSchema())],
    body: { ...body(s.replayBody), required: true },
    responses: answer(s.replayedAnswer),
  }),
];

function seqSchema(): JsonSchema {
  return { type: 'string', pattern: '^\\d{1,15}$', description: 'a whole number' };
}

/** What the app asks for the signed-in owner (an `app` principal made from a session only). */
export const APP_INTERNAL_ROUTES: readonly InternalRouteDef[] = [
  def({
    operationId: 'appGetAccess',
    method: 'get',
    path: '/internal/app/account',
    summary: "The owner's account",
    responses: appAnswer(s.accountAnswer),
  }),
  def({
    operationId: 'appSetDeveloperMode',
    method: 'put',
    path: '/internal/app/developer-mode',
    summary: 'Developer mode on or off',
    body: { ...body(s.developerModeBody), required: true },
    responses: appAnswer(s.developerModeAnswer),
  }),
  def({
    operationId: 'appUpdateProfile',
    method: 'patch',
    path: '/internal/app/profile',
    summary: 'Change the display name',
    body: { ...body(s.profileBody), required: true },
    responses: appAnswer(s.accountAnswer),
  }),
  def({
    operationId: 'appListTokens',
    method: 'get',
    path: '/internal/app/tokens',
    summary: "The owner's active tokens",
    responses: appAnswer(s.tokenListAnswer),
  }),
  def({
    operationId: 'appCreateToken',
    method: 'post',
    path: '/internal/app/tokens',
    summary: 'Make a token',
    body: { ...body(s.createTokenBody), required: true },
    responses: appAnswer(s.createdTokenAnswer, 201),
  }),
  def({
    operationId: 'appRevokeToken',
    method: 'delete',
    path: '/internal/app/tokens/{id}',
    summary: "Revoke one of the owner's tokens",
    params: [id],
    responses: appAnswer(s.revokedAnswer),
  }),
  def({
    operationId: 'appListSessions',
    method: 'get',
    path: '/internal/app/sessions',
    summary: "The owner's sessions",
    responses: appAnswer(s.sessionListAnswer),
  }),
  def({
    operationId: 'appGetSettings',
    service: 'account',
    method: 'get',
    path: '/app/settings',
    summary: "The app's settings page: the account's settings, the app's own included",
    responses: appAnswer(s.appSettingsAnswer),
  }),
  def({
    operationId: 'appUpdateSettings',
    service: 'account',
    method: 'patch',
    path: '/app/settings',
    summary: "Change the app's settings (uiLocale included)",
    body: { ...body(s.appSettingsBody), required: true },
    responses: appAnswer(s.appSettingsAnswer),
  }),
  def({
    operationId: 'appEmailSummary',
    service: 'account',
    method: 'post',
    path: '/app/recordings/{id}/summary-email',
    summary: "Email a READY meeting's summary to oneself, or to its series' email list (series owner); rate-limited",
    params: [id],
    body: { ...body(s.emailSummaryBody), required: true },
    responses: appAnswer(s.emailSummaryAnswer),
  }),
  def({
    operationId: 'appGetWallet',
    service: 'account',
    method: 'get',
    path: '/app/wallet',
    summary: 'The wallet page',
    responses: appAnswer(s.walletAnswer),
  }),
  def({
    operationId: 'appBuyMinutes',
    service: 'account',
    method: 'post',
    path: '/app/wallet/purchases',
    summary: 'Buy a pack of minutes (where the install sells them); the key makes a resent form one purchase',
    params: [purchaseKey],
    body: { ...body(s.appPurchaseBody), required: true },
    responses: appAnswer(s.balanceAnswer),
  }),
  // Series sharing and deletion: the series service, owner only unless said (another account's series or invite: 404).
  def({
    operationId: 'appCreateSeriesInvite',
    service: 'series',
    method: 'post',
    path: '/app/series/{id}/invites',
    summary: 'Make an invite link to a series (owner)',
    params: [id],
    responses: appAnswer(s.seriesInviteAnswer, 201),
  }),
  def({
    operationId: 'appReadSeriesInvite',
    service: 'series',
    method: 'get',
    path: '/app/series-invites/{id}',
    summary: 'What an invite link leads to (any signed-in person)',
    params: [inviteId],
    responses: appAnswer(s.seriesInvitePreviewAnswer),
  }),
  def({
    operationId: 'appAcceptSeriesInvite',
    service: 'series',
    method: 'post',
    path: '/app/series-invites/{id}/accept',
    summary: 'Join the series of an invite link',
    params: [inviteId],
    responses: appAnswer(s.seriesInviteAcceptedAnswer),
  }),
  def({
    operationId: 'appListOwnedSeries',
    service: 'series',
    method: 'get',
    path: '/app/owned-series',
    summary: "The owner's series with each one's digest defaults, in one read (the upload page)",
    responses: appAnswer(s.ownedSeriesAnswer),
  }),
  def({
    operationId: 'appListSeriesMembers',
    service: 'series',
    method: 'get',
    path: '/app/series/{id}/members',
    summary: "A series' members and open invites (owner; a member sees the members)",
    params: [id],
    responses: appAnswer(s.seriesMembersAnswer),
  }),
  def({
    operationId: 'appRemoveSeriesMember',
    service: 'series',
    method: 'delete',
    path: '/app/series/{id}/members/{accountId}',
    summary: 'The owner removes a member, or a member leaves',
    params: [id, pathParam('accountId')],
    responses: appAnswer(s.seriesMemberRemovedAnswer),
  }),
  def({
    operationId: 'appGetSeriesEmailList',
    service: 'series',
    method: 'get',
    path: '/app/series/{id}/email-list',
    summary: "A series' email list (owner)",
    params: [id],
    responses: appAnswer(s.seriesEmailListAnswer),
  }),
  def({
    operationId: 'appReplaceSeriesEmailList',
    service: 'series',
    method: 'put',
    path: '/app/series/{id}/email-list',
    summary: "Replace a series' email list (owner)",
    params: [id],
    body: { ...body(s.seriesEmailListBody), required: true },
    responses: appAnswer(s.seriesEmailListAnswer),
  }),
  // The meeting page and the naming sheet: the recordings service, owner only (another account's meeting: 404).
  def({
    operationId: 'appGetMeetingSheet',
    service: 'recordings',
    method: 'get',
    path: '/internal/app/recordings/{id}/sheet',
    summary: 'A meeting for its page and naming sheet: the transcript before READY, the voices and their clips',
    params: [id],
    responses: appAnswer(s.meetingSheetAnswer),
  }),
  def({
    operationId: 'appGetMeetingAudio',
    service: 'recordings',
    method: 'get',
    path: '/internal/app/recordings/{id}/audio',
    summary: "A meeting's audio, whole or the byte range asked for (404 when it keeps none)",
    params: [id, { name: 'Range', in: 'header' as const, required: false, schema: { type: 'string' } }],
    responses: [
      { status: 200, contentType: 'audio/*', schema: s.meetingAudio, description: 'the whole file' },
      { status: 206, contentType: 'audio/*', schema: s.meetingAudio, description: 'the range asked for' },
    ],
  }),
  // The Ask tab: the ask service, the person's own earlier questions.
  def({
    operationId: 'appListRecordingAsks',
    service: 'ask',
    method: 'get',
    path: '/internal/app/recordings/{id}/asks',
    summary: "The person's earlier questions and answers on a meeting",
    params: [id],
    responses: appAnswer(s.earlierAsksAnswer),
  }),
  def({
    operationId: 'appListSeriesAsks',
    service: 'ask',
    method: 'get',
    path: '/internal/app/series/{id}/asks',
    summary: "The person's earlier questions and answers on a series",
    params: [id],
    responses: appAnswer(s.earlierAsksAnswer),
  }),
  def({
    operationId: 'appDeleteSeries',
    service: 'series',
    method: 'delete',
    path: '/app/series/{id}',
    summary: "Delete a series (owner); its meetings stay the owner's",
    params: [id],
    responses: appAnswer(s.seriesDeletedAnswer),
  }),
  // The naming sheet: the recordings service, owner only (another account's meeting: 404 like a missing one).
  def({
    operationId: 'appOpenNamingSheet',
    service: 'recordings',
    method: 'post',
    path: '/internal/app/recordings/{id}/naming-sheet/open',
    summary: 'The owner opened the naming sheet: at NAMING its deadline moves later (never earlier)',
    params: [id],
    responses: appAnswer(s.namingSheetOpenedAnswer),
  }),
  def({
    operationId: 'appMergeVoices',
    service: 'recordings',
    method: 'post',
    path: '/internal/app/recordings/{id}/voices/merge',
    summary: "These two voices are one person: the turns of `from` become `into`'s (at NAMING)",
    params: [id],
    body: { ...body(s.mergeVoicesBody), required: true },
    responses: appAnswer(s.voicesMergedAnswer),
  }),
  // The meetings list's search: the public search's parameters and scope, each item with its moment.
  def({
    operationId: 'appSearchMeetings',
    service: 'recordings',
    method: 'get',
    path: '/internal/app/search',
    summary: "Search the person's meetings (and a readable series'), each hit with where its snippet was said (atMs)",
    params: searchRecordings.params,
    responses: answer(s.appSearchAnswer),
  }),
  // The trash: the owner's deleted meetings until the purge removes them (restore: adminRestoreRecording).
  def({
    operationId: 'appListTrash',
    service: 'recordings',
    method: 'get',
    path: '/internal/app/trash',
    summary: "The owner's deleted meetings, each with when it is gone for good",
    responses: appAnswer(s.trashAnswer),
  }),
];
