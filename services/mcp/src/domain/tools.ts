/**
 * The MCP tools, derived from the contract's route table (never a second list): one tool per
 * operation the token's scopes admit, named by operationId, described and shaped by the route's
 * texts, parameters and schemas, in plain English for a model. Pure.
 */
import { LIMITS, ROUTES, withoutBinaryParts, type JsonSchema, type RouteDef } from '@mm/contract';
import { compactInput, compactOutput, jsonAnswer, withFields } from './tool-schemas';

export type Transport = 'stdio' | 'http';

/** The one tool that is not a route: it polls the status route until the meeting settles. */
export const WAIT_TOOL = 'waitForRecording';

type ObjectSchema = JsonSchema & { type: 'object' };

export interface ToolDef {
  name: string;
  /** The route the tool calls; for `waitForRecording`, the status route it polls. */
  route: RouteDef;
  /** The free quote route asked before a spending call, where the contract has one. */
  quote?: RouteDef;
  kind: 'route' | 'wait';
  description: string;
  inputSchema: ObjectSchema;
  outputSchema: ObjectSchema;
  /** MCP's hints, each only where it differs from the spec's default (not read-only, destructive, not idempotent). */
  annotations: { readOnlyHint?: true; destructiveHint?: false; idempotentHint?: true };
  _meta: Record<string, unknown>;
}

export interface ToolOptions {
  transport: Transport;
  /** HTTP only: whether the operator lets audio be fetched by URL. */
  audioByUrl: boolean;
}

/** Whether a token with these scopes may call the route (any listed scope admits; `any` admits all). */
export function admits(route: RouteDef, scopes: readonly string[]): boolean {
  return route.scopes === 'any' || route.scopes.some((s) => scopes.includes(s));
}

/**
 * Arguments the server fills itself: the header key (a spending tool takes `idempotencyKey` as an
 * argument instead) and the naming action (its only value).
 */
const MADE_BY_SERVER = new Set(['Idempotency-Key', 'idempotencyKey', 'action']);

/** A spending call's key, an argument of the tool: left out, the server makes a new one for the call. */
export const KEY_ARGUMENT = 'idempotencyKey';

const KEY_SCHEMA: JsonSchema = {
  type: 'string',
  minLength: LIMITS.idempotencyKeyMin,
  maxLength: LIMITS.idempotencyKeyMax,
  description:
    `Optional, ${LIMITS.idempotencyKeyMin} to ${LIMITS.idempotencyKeyMax} characters you make (random) for this request. Left out, every call is a new request. ` +
    'To repeat a request whose answer was lost, send it again with the same key: the first result comes back, charged once.',
};

/**
 * Argument texts where the route's own would say little to a model (its sentence speaks of HTTP,
 * or it has none): by `operationId.argument`, else by argument name. A route's text is kept otherwise.
 */
const SERIES_NAME = `Series name, 1 to ${LIMITS.seriesNameMaxChars} characters, unique among your series (ignoring case).`;

const ARGUMENT_TEXT: Record<string, string> = {
  limit: 'How many to return at most.',
  q: 'What to look for: words or a phrase, in English or Persian.',
  seriesId: 'Only meetings of this series (its id).',
  'submitRecording.seriesId': 'File the meeting in one of your own series (its id).',
  'submitRecording.recordedAt': 'When the meeting happened, ISO 8601 with an offset; default the time it is sent.',
  'submitRecording.useKeyterms': "Whether transcription uses the keyterms (the series', then the account's); 20% more.",
  question: `The question, 1 to ${LIMITS.questionMaxChars} characters.`,
  title: "The meeting's title.",
  'createSeries.name': SERIES_NAME,
  'updateSeries.name': SERIES_NAME,
  keyterms: 'The whole new list: it replaces the old one.',
  inheritAccountKeyterms: "Whether the account's keyterms apply to the series too.",
};

/** Where the Ask asks its quote first, the quote is the cap unless maxMinutes sets a lower one. */
const QUOTED_MAX_MINUTES = 'Most minutes to spend. Left out, the free quote asked first is the cap.';

function described(route: RouteDef, name: string, schema: JsonSchema): JsonSchema {
  const text = ARGUMENT_TEXT[`${route.operationId}.${name}`] ?? (schema.description ? null : ARGUMENT_TEXT[name]);
  return text ? { ...schema, description: text } : schema;
}

/** The tools a token with these scopes sees. */
export function toolsFor(scopes: readonly string[], opts: ToolOptions): ToolDef[] {
  const tools: ToolDef[] = [];
  for (const route of ROUTES) {
    if (!admits(route, scopes) || quotedByItsAsk(route, scopes)) continue;
    const found = ROUTES.find((r) => r.method === 'get' && r.path === `${route.path}/quote`);
    const quote = route.spends && found && admits(found, scopes) ? found : undefined;
    const input = inputSchemaOf(route, opts, quote !== undefined);
    if (!input) continue;
    tools.push({
      name: route.operationId,
      route,
      quote,
      kind: 'route',
      description: [`${route.summary.en}.`, toolWording(route, opts), route.spends ? priceNote(route, quote) : '']
        .filter(Boolean)
        .join(' '),
      inputSchema: input,
      outputSchema: outputSchemaOf(route),
      annotations: annotationsOf(route),
      _meta: route.spends ? { 'mm/spends': true } : {},
    });
    if (route.operationId === 'getRecordingStatus') tools.push(waitTool(route, input));
  }
  return tools;
}

/**
 * A price quote is not listed beside its Ask: the Ask asks it first (free) and charges at most
 * that, and its answer states the charge. Listed alone (a token that may quote but not ask) it stays.
 */
function quotedByItsAsk(route: RouteDef, scopes: readonly string[]): boolean {
  const ask =
    route.path.endsWith('/ask/quote') && ROUTES.find((r) => r.method === 'post' && `${r.path}/quote` === route.path);
  return Boolean(ask && admits(ask, scopes));
}

function annotationsOf(route: RouteDef): ToolDef['annotations'] {
  if (route.method === 'get') return { readOnlyHint: true };
  // A PUT replaces what was there (a keyterm list), a DELETE removes: both may destroy; a POST adds or changes a field.
  return {
    ...(route.method === 'post' || route.method === 'patch' ? { destructiveHint: false as const } : {}),
    ...(route.method === 'put' || route.method === 'delete' ? { idempotentHint: true as const } : {}),
  };
}

function priceNote(route: RouteDef, quote: RouteDef | undefined): string {
  if (quote) return 'Spends minutes: the price is quoted first (free) and never exceeded; maxMinutes sets a lower cap.';
  if (route.body?.contentType === 'multipart/form-data')
    return "Spends minutes: the audio's length (20% more with keyterms).";
  return 'Spends minutes.';
}

/** The route's description in the tool's terms: no status codes or headers; how the audio is given. */
function toolWording(route: RouteDef, opts: ToolOptions): string {
  // The summary says what the tool does; the route's longer text speaks of the wire and stays in openapi.json.
  const sentences: string[] = [];
  const audio = route.body?.contentType === 'multipart/form-data' ? audioInput(opts) : null;
  if (audio) sentences.push(`The audio is ${audio.taken}.`);
  if (route.spends)
    sentences.push(
      `Each call is a new request; the same ${KEY_ARGUMENT} sent again returns the first result, charged once.`,
    );
  if (route.operationId === 'getRecordingBundle') sentences.push('Markdown; part, from, to and speaker read less.');
  if (route.operationId === 'searchRecordings') sentences.push('Hits link their bundle and the moment found.');
  if (route.operationId.startsWith('ask'))
    sentences.push("Citations quote the words, with times and the speaker's name.");
  return sentences.filter(Boolean).join(' ');
}

/** Path and query parameters by name, the body's fields; what the server makes itself left out. */
function inputSchemaOf(route: RouteDef, opts: ToolOptions, quoted: boolean): ObjectSchema | null {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of route.params) {
    if (MADE_BY_SERVER.has(p.name)) continue;
    properties[p.name] = described(route, p.name, compactInput(p.schema));
    if (p.required) required.push(p.name);
  }
  if (route.body) {
    const multipart = route.body.contentType === 'multipart/form-data';
    const schema = multipart ? withoutBinaryParts(route.body.schema) : route.body.schema;
    for (const [name, part] of Object.entries(schema.properties as Record<string, JsonSchema>)) {
      if (MADE_BY_SERVER.has(name)) continue;
      properties[name] = described(route, name, compactInput(multipart ? asJsonValue(part) : part));
      if (((schema.required ?? []) as string[]).includes(name)) required.push(name);
    }
    if (multipart) {
      const audio = audioInput(opts);
      if (!audio) return null;
      properties[audio.name] = audio.schema;
      required.push(audio.name);
    }
  }
  if (route.operationId === 'getRecordingBundle') Object.assign(properties, BUNDLE_SELECTION);
  if (quoted && properties.maxMinutes)
    properties.maxMinutes = { ...properties.maxMinutes, description: QUOTED_MAX_MINUTES };
  if (route.spends) properties[KEY_ARGUMENT] = KEY_SCHEMA;
  return { type: 'object', properties, required: [...new Set(required)], additionalProperties: false };
}

const moment = (what: string): JsonSchema => ({ type: 'string', description: `${what}, m:ss or h:mm:ss.` });

/** How much of a bundle to read (instead of the route's `format`). */
const BUNDLE_SELECTION: Record<string, JsonSchema> = {
  format: { type: 'string', enum: ['markdown', 'json'], description: 'Default markdown.' },
  part: { type: 'string', enum: ['all', 'digest', 'transcript'], description: 'Default all.' },
  from: moment('Transcript start'),
  to: moment('Transcript end'),
  speaker: { type: 'string', description: "Only this speaker's turns (name or label)." },
};

const FILE_FIELD: JsonSchema = {
  type: 'object',
  properties: { name: { type: 'string' }, size: { type: 'integer' } },
  required: ['name', 'size'],
};
/** A citation as the Ask tools answer it: the route's fields, with the words quoted from the bundle. */
const CITATIONS: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      startMs: { type: 'number' },
      endMs: { type: ['number', 'null'] },
      at: { type: 'string' },
      speaker: { type: ['string', 'null'] },
      speakerName: { type: ['string', 'null'] },
      quote: { type: ['string', 'null'] },
      recordingId: { type: 'string' },
    },
    required: ['startMs', 'at'],
  },
};

/** What a tool's structuredContent holds: the route's answer, shaped as the tool answers it. */
function outputSchemaOf(route: RouteDef): ObjectSchema {
  const answer = jsonAnswer(route);
  switch (route.operationId) {
    case 'getRecordingBundle':
      return withFields(undefined, {
        id: { type: 'string' },
        format: { type: 'string' },
        part: { type: 'string' },
        title: { type: 'string' },
        bundle: { type: 'object' },
      }) as ObjectSchema;
    case 'submitRecording':
      return withFields(answer, { file: FILE_FIELD }) as ObjectSchema;
    case 'askRecording':
    case 'askSeries':
      return withFields(answer, { citations: CITATIONS }) as ObjectSchema;
    default:
      return (answer ? { ...compactOutput(answer), type: 'object' } : { type: 'object' }) as ObjectSchema;
  }
}

/**
 * A multipart text part as a tool argument: a form can only carry text, so the contract's
 * `"true" | "false"` part is a JSON boolean here (the call sends it back as text).
 */
function asJsonValue(part: JsonSchema): JsonSchema {
  const values = part.enum as unknown[] | undefined;
  if (part.type !== 'string' || values?.length !== 2 || !values.includes('true') || !values.includes('false'))
    return part;
  const flag: JsonSchema = { ...part, type: 'boolean' };
  delete flag.enum;
  return flag;
}

/**
 * How a tool caller hands over audio: a local path over stdio, a URL over HTTP when allowed;
 * `taken` says it in the tool's description.
 */
function audioInput(opts: ToolOptions): { name: string; schema: JsonSchema; taken: string } | null {
  if (opts.transport === 'stdio')
    return {
      name: 'path',
      taken: 'read from `path`, inside a folder the person allowed',
      schema: {
        type: 'string',
        minLength: 1,
        description: "Absolute path on the server's machine.",
      },
    };
  if (!opts.audioByUrl) return null;
  return {
    name: 'audioUrl',
    taken: 'fetched by the server from `audioUrl` (an http(s) URL on a host the operator allows)',
    schema: { type: 'string', format: 'uri', description: 'An http(s) URL of the audio on an allowed host.' },
  };
}

function waitTool(status: RouteDef, input: ObjectSchema): ToolDef {
  return {
    name: WAIT_TOOL,
    route: status,
    kind: 'wait',
    description:
      'Waits until a meeting is READY or FAILED, or waits for speaker names (NAMING), with progress. Free. ' +
      'Where it needs more than waiting, `next` says what to do; naming "skip" goes on without names.',
    inputSchema: {
      ...input,
      properties: {
        ...(input.properties as object),
        naming: { type: 'string', enum: ['skip'], description: 'skip: go on without names instead of stopping.' },
      },
    },
    outputSchema: withFields(jsonAnswer(status), {
      next: { type: 'object', properties: { message: { type: 'string' }, calls: { type: 'array' } } },
    }) as ObjectSchema,
    annotations: { destructiveHint: false, idempotentHint: true },
    _meta: {},
  };
}
