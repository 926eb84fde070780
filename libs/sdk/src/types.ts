/** The API's shapes, from the generated openapi types: one name per answer and per request body. */
import type { components, operations } from './generated/openapi';
import type { DIGEST_SECTION_KINDS } from './generated/catalog';

type Json<O extends keyof operations, S extends number = 200> =
  operations[O]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;
type Body<O extends keyof operations> = operations[O] extends {
  requestBody?: { content: { 'application/json': infer B } };
}
  ? B
  : never;
/** The query of an operation (every parameter optional where the contract says so). */
export type Query<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>;

export type WhoAmI = Json<'whoami'>;
export type RecordingStatus = Json<'getRecordingStatus'>;
export type RecordingPage = Json<'listReadyRecordings'>;
export type SearchPage = Json<'searchRecordings'>;
export type AskAnswer = Json<'askRecording'>;
export type SeriesAskAnswer = Json<'askSeries'>;
export type EventsPage = Json<'listEvents'>;
export type FeedEvent = EventsPage['events'][number];
export type SubmitResult = Json<'submitRecording', 202>;
export type SeriesList = Json<'listReadableSeries'>;
export type SeriesAnswer = Json<'getSeries'>;
export type SeriesKeyterms = Json<'getSeriesKeyterms'>;
export type Account = Json<'getAccount'>;
export type AccountKeyterms = Json<'getAccountKeyterms'>;
export type MemoryList = Json<'listMemory'>;
export type MemoryItemAnswer = Json<'updateMemoryItem'>;
export type CreateSeriesInput = Body<'createSeries'>;
export type UpdateSeriesInput = Body<'updateSeries'>;
export type SeriesKeytermsInput = Body<'replaceSeriesKeyterms'>;
export type AccountSettingsInput = Body<'updateAccountSettings'>;
export type Schemas = components['schemas'];

type RawBundle = Exclude<Json<'getRecordingBundle'>, string>;
type AnySection = RawBundle['digest']['content'][number];

/** A digest section kind this version knows. */
export type DigestSectionKind = (typeof DIGEST_SECTION_KINDS)[number];

/**
 * A digest section: a union discriminated by `kind` (`if (s.kind === 'action_item_list') s.items…`).
 * Sections of kinds added later are left out by `bundle()`, as the contract asks clients to ignore them.
 */
export type DigestSection = Extract<AnySection, { kind: DigestSectionKind }>;

/** The bundle, its digest's sections narrowed to the known kinds. */
export type Bundle = Omit<RawBundle, 'digest'> & {
  digest: Omit<RawBundle['digest'], 'content' | 'sections'> & { content: DigestSection[]; sections: DigestSection[] };
};
