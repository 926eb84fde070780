/**
 * The MCP tools, derived from the contract's route table (never a second list): one tool per
 * operation the token's scopes admit, named by operationId, described and shaped by the route's
 * texts, parameters and body schema. Pure.
 */
import { ROUTES, withoutBinaryParts, type JsonSchema, type ParamDef, type RouteDef } from '@mm/contract';

export type Transport = 'stdio' | 'http';

/** The one tool that is not a route: it polls the status route until the meeting settles. */
export const WAIT_TOOL = 'waitForRecording';

export interface ToolDef {
  name: string;
  /** The route the tool calls; for `waitForRecording`, the status route it polls. */
  route: RouteDef;
  /** The free quote route asked before a spending call, where the contract has one. */
  quote?: RouteDef;
  kind: 'route' | 'wait';
  description: string;
  inputSchema: JsonSchema & { type: 'object' };
  annotations: {
    title: string;
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
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

/** The tools a token with these scopes sees. */
export function toolsFor(scopes: readonly string[], opts: ToolOptions): ToolDef[] {
  const tools: ToolDef[] = [];
  for (const route of ROUTES) {
    if (!admits(route, scopes)) continue;
    const input = inputSchemaOf(route, opts);
    if (!input) continue;
    const quote = ROUTES.find((r) => r.method === 'get' && r.path === `${route.path}/quote`);
    tools.push({
      name: route.operationId,
      route,
      quote: route.spends && quote && admits(quote, scopes) ? quote : undefined,
      kind: 'route',
      description: [`${route.summary.en}.`, toolWording(route, opts), route.spends ? priceNote(route, quote) : '']
        .filter(Boolean)
        .join(' '),
      inputSchema: input,
      annotations: {
        title: route.summary.en,
        readOnlyHint: route.method === 'get',
        destructiveHint: route.method === 'delete',
        idempotentHint: route.method !== 'post' && route.method !== 'patch',
        openWorldHint: false,
      },
      _meta: {
        'mm/operationId': route.operationId,
        'mm/scopes': route.scopes,
        'mm/spends': route.spends,
        'mm/rateClass': route.rateClass,
        ...(route.spends ? { 'mm/price': priceNote(route, quote) } : {}),
      },
    });
    if (route.operationId === 'getRecordingStatus') tools.push(waitTool(route, input));
  }
  return tools;
}

function priceNote(route: RouteDef, quote: RouteDef | undefined): string {
  if (quote) {
    return `Spends minutes: the price is quoted first by ${quote.operationId} (free) and sent as maxMinutes unless you give one, so the charge never exceeds the quote.`;
  }
  if (route.body?.contentType === 'multipart/form-data') {
    return "Spends minutes: the price is the audio's length in minutes (20% more with keyterms); the answer states it.";
  }
  return 'Spends minutes.';
}

/** A route parameter as a tool argument: path and query by name, a header camel-cased (`Idempotency-Key` → `idempotencyKey`). */
export function argumentName(p: ParamDef): string {
  if (p.in !== 'header') return p.name;
  return p.name
    .split('-')
    .map((w, i) => (i === 0 ? w.toLowerCase() : w.charAt(0).toUpperCase() + w.slice(1).toLowerCase()))
    .join('');
}

/**
 * The contract's description in the tool's terms: the HTTP route speaks of the wire (a multipart
 * body, a 202, an Idempotency-Key header), the tool of its arguments. A sentence asking for a header
 * becomes what to do with its argument; the multipart body becomes where the tool takes the audio from.
 */
function toolWording(route: RouteDef, opts: ToolOptions): string {
  const headers = route.params.filter((p) => p.in === 'header');
  const audio = route.body?.contentType === 'multipart/form-data' ? audioInput(opts) : null;
  const sentences = route.description.en
    .split(/(?<=\.)\s+(?=[A-Z])/)
    .filter((s) => !headers.some((h) => s.includes(h.name)))
    .map((s) => (audio ? s.replace(` as ${route.body!.contentType}`, `, ${audio.taken},`) : s))
    // A tool call has no HTTP status; its answer is the body.
    .map((s) => s.replace(/\banswers 2\d\d with\b/, 'answers with'));
  for (const h of headers) sentences.push(repeatNote(route, argumentName(h)));
  return sentences.join(' ');
}

function repeatNote(route: RouteDef, argument: string): string {
  return (
    `Repeating a call whose reply was lost: send the same ${argument} argument, the repeat returns the first ` +
    `result${route.spends ? ' and is charged once' : ''} (without one, each call is new).`
  );
}

/** Path and query parameters by name, headers as their camel-cased argument, the body's fields. */
function inputSchemaOf(route: RouteDef, opts: ToolOptions): (JsonSchema & { type: 'object' }) | null {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const p of route.params) {
    const name = argumentName(p);
    properties[name] = p.schema;
    if (p.required) required.push(name);
  }
  if (route.body) {
    const multipart = route.body.contentType === 'multipart/form-data';
    const schema = multipart ? withoutBinaryParts(route.body.schema) : route.body.schema;
    for (const [name, part] of Object.entries(schema.properties as Record<string, JsonSchema>))
      properties[name] = multipart ? asJsonValue(part) : part;
    required.push(...((schema.required ?? []) as string[]));
    if (multipart) {
      const audio = audioInput(opts);
      if (!audio) return null;
      properties[audio.name] = audio.schema;
      required.push(audio.name);
    }
  }
  return { type: 'object', properties, required: [...new Set(required)], additionalProperties: false };
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
      taken: "read from the file at the absolute `path` argument on the machine the MCP server runs on",
      schema: {
        type: 'string',
        minLength: 1,
        description:
          'Absolute path of the audio file on the machine the MCP server runs on (a relative path is refused: ' +
          "the server's working directory is not the caller's).",
      },
    };
  if (!opts.audioByUrl) return null;
  return {
    name: 'audioUrl',
    taken: 'fetched by the server from the `audioUrl` argument (an http(s) URL on a host the operator allows)',
    schema: {
      type: 'string',
      format: 'uri',
      description: 'An http(s) URL of the audio, on a host the operator allows; the server fetches it.',
    },
  };
}

function waitTool(status: RouteDef, input: JsonSchema & { type: 'object' }): ToolDef {
  return {
    name: WAIT_TOOL,
    route: status,
    kind: 'wait',
    description:
      `Waits for a meeting by polling ${status.operationId} as the contract advises (about once a minute, quicker at first; Retry-After honoured) ` +
      'until READY, FAILED or NAMING, sending MCP progress notifications with each status; answers the last status. Free. ' +
      'Where the meeting needs more than waiting (NAMING; FAILED that can be retried) the answer adds `next`: ' +
      'what to do, and the calls that go on with their arguments.',
    inputSchema: input,
    annotations: {
      title: 'Wait for a meeting',
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
    _meta: {
      'mm/operationId': status.operationId,
      'mm/scopes': status.scopes,
      'mm/spends': false,
      'mm/rateClass': status.rateClass,
    },
  };
}
