import { MmApiError, newIdempotencyKey, type MeetingMemory, type RecordingStatus, type SubmitInput } from '@mm/sdk';
import type { RouteDef } from '@mm/contract';
import { nextStep } from '../domain/next-step';
import { KEY_ARGUMENT, type ToolDef } from '../domain/tools';
import { uploadableAudio } from './audio-path';
import { fetchAudio } from './audio-url';
import { faultOf, faultText, type Fault } from './faults';
import { json, readBundle, searchLinks, withQuotes, type ToolResult } from './reading';

export type { ToolResult } from './reading';

export interface CallDeps {
  client: MeetingMemory;
  transport: 'stdio' | 'http';
  audioUrlHosts: readonly string[];
  /** stdio: folders the operator allows uploads from (MM_UPLOAD_DIRS), beside the client's roots. */
  uploadDirs: readonly string[];
  pollMaxSeconds: number;
}

export interface CallContext {
  signal: AbortSignal;
  /** The tools the token has: a wait that stops short of READY offers only these as next calls. */
  tools: readonly ToolDef[];
  /** Sends an MCP progress notification when the caller asked for progress. */
  progress: (progress: number, total: number, message: string) => Promise<void>;
  /** The folders the MCP client shares as roots (asked at each upload: they can change). */
  roots: () => Promise<string[]>;
}

const STEPS = ['QUEUED', 'TRANSCRIBING', 'NAMING', 'GENERATING', 'READY'];

/**
 * Runs a tool whose arguments fit its inputSchema (checked before): the route's call with the
 * arguments split into path, query, header and body, or the wait loop. A contract error comes back
 * as a tool error carrying its code (never thrown). Spending calls are not cut short by a cancel:
 * sent again with the same key, the call returns the stored result.
 */
export async function callTool(
  deps: CallDeps,
  tool: ToolDef,
  args: Record<string, unknown>,
  ctx: CallContext,
): Promise<ToolResult> {
  try {
    if (tool.kind === 'wait') return waited(await waitThrough(deps, args, ctx), ctx.tools);
    const client = deps.client;
    switch (tool.route.operationId) {
      case 'submitRecording':
        return json(await submit(deps, tool, args, ctx));
      case 'getRecordingBundle':
        return await readBundle(client, args);
      case 'searchRecordings':
        return await searchLinks(client, String(args.q), await routeAnswer(deps, tool, args, ctx));
      case 'askRecording':
        return await withQuotes(client, String(args.id), await routeAnswer(deps, tool, args, ctx));
      case 'askSeries':
        return await withQuotes(client, undefined, await routeAnswer(deps, tool, args, ctx));
      default:
        return json(await routeAnswer(deps, tool, args, ctx));
    }
  } catch (err) {
    return toolErrorOf(err, deps.client.options.url);
  }
}

/** A tool error for a contract error, an unreachable service or an unusable argument; anything else is rethrown. */
export function toolErrorOf(err: unknown, serviceUrl: string): ToolResult {
  const fault = faultOf(err, serviceUrl);
  if (!fault) throw err;
  return toolError(fault);
}

/**
 * A tool error: `structuredContent.error` is the fault (code, message, details, and
 * retryAfterSeconds when Retry-After asked to wait); the text says the same in one line.
 */
export function toolError(fault: Fault): ToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: faultText(fault) }],
    structuredContent: { error: fault },
  };
}

/** The status the wait ended on, with `next` (also said in the text) where waiting alone cannot go on. */
function waited(status: RecordingStatus, tools: readonly ToolDef[]): ToolResult {
  const next = nextStep(status, tools);
  if (!next) return json(status);
  const result = json({ ...status, next });
  result.content.push({ type: 'text', text: `Next: ${next.message}` });
  return result;
}

/**
 * The route's JSON answer. A spending call carries the caller's key or a new one (kept for the
 * client's own retries of this call), and is not cut short by a cancel. The naming route's only
 * action is sent for the caller.
 */
async function routeAnswer(
  deps: CallDeps,
  tool: ToolDef,
  args: Record<string, unknown>,
  ctx: CallContext,
): Promise<Record<string, unknown> & any> {
  const route = tool.route;
  const { [KEY_ARGUMENT]: key, ...values } = args;
  const headers: Record<string, string> = {};
  if (route.spends) headers['Idempotency-Key'] = spendingKey(key);
  if (route.operationId === 'skipRecordingNaming') values.action = 'skip';
  if (tool.quote && values.maxMinutes === undefined) {
    const quote = await request(deps, tool.quote, { id: values.id }, undefined);
    values.maxMinutes = ((await quote.json()) as { minutes: number }).minutes;
  }
  const res = await request(deps, route, values, route.spends ? undefined : ctx.signal, headers);
  return res.json();
}

/** One call of a route: `{name}` path parameters, query parameters, the rest as the JSON body. */
function request(
  deps: CallDeps,
  route: RouteDef,
  values: Record<string, unknown>,
  signal: AbortSignal | undefined,
  headers: Record<string, string> = {},
): Promise<Response> {
  const rest = { ...values };
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = rest[name];
    delete rest[name];
    return encodeURIComponent(String(v));
  });
  const query = new URLSearchParams();
  for (const p of route.params.filter((q) => q.in === 'query')) {
    if (rest[p.name] !== undefined) query.set(p.name, String(rest[p.name]));
    delete rest[p.name];
  }
  const qs = query.toString();
  const hasBody = route.body !== undefined;
  return deps.client.raw(route.method.toUpperCase(), `${path}${qs ? `?${qs}` : ''}`, {
    signal,
    headers: { ...headers, ...(hasBody ? { 'Content-Type': 'application/json' } : {}) },
    body: hasBody ? JSON.stringify(rest) : undefined,
  });
}

/**
 * Sends a local file (stdio: inside the client's roots or MM_UPLOAD_DIRS, sniffed as audio) or a
 * fetched URL (HTTP: streamed to a capped temporary file); the answer names the file and its size.
 */
async function submit(deps: CallDeps, tool: ToolDef, args: Record<string, unknown>, ctx: CallContext) {
  const {
    path,
    audioUrl,
    useKeyterms,
    [KEY_ARGUMENT]: key,
    ...parts
  } = args as Record<string, string | undefined> & {
    useKeyterms?: boolean;
  };
  let file: { path: string; name: string; size: number };
  let remove = async () => undefined as void;
  if (deps.transport === 'stdio') {
    // A root the client shares may also be in MM_UPLOAD_DIRS: each folder is named once.
    file = await uploadableAudio(path!, [...new Set([...deps.uploadDirs, ...(await ctx.roots())])]);
  } else {
    const limits = (await deps.client.whoami()).limits;
    const fetched = await fetchAudio(audioUrl!, deps.audioUrlHosts, limits.maxUploadMb * 1024 * 1024);
    file = { path: fetched.path, name: fetched.filename, size: fetched.size };
    remove = fetched.remove;
  }
  try {
    const input = {
      audio: file.path,
      filename: file.name,
      idempotencyKey: spendingKey(key),
      title: parts.title,
      seriesId: parts.seriesId,
      kind: parts.kind as SubmitInput['kind'],
      outputLanguage: parts.outputLanguage as SubmitInput['outputLanguage'],
      naming: parts.naming as SubmitInput['naming'],
      recordedAt: parts.recordedAt,
      useKeyterms,
    };
    const result = await deps.client.submitRecording(input);
    return { ...result, file: { name: file.name, size: file.size } };
  } catch (err) {
    throw namingTheAudio(err, tool, deps.transport === 'stdio' ? `path ${path}` : `audioUrl ${audioUrl}`);
  } finally {
    await remove();
  }
}

/**
 * A spending call's Idempotency-Key: the caller's, to repeat a request whose answer was lost, or a
 * new random one (the contract: one random key per new request, never derived from the file).
 */
function spendingKey(given: unknown): string {
  return typeof given === 'string' ? given : newIdempotencyKey();
}

/**
 * A refusal of what was sent (400, 413: unsupported type, unreadable or too long audio) names the
 * file or URL, as a bad `path` does before sending: the caller may have sent several. A message that
 * already names another argument (`recordedAt must be...`) is about that argument and left as it is.
 */
function namingTheAudio(err: unknown, tool: ToolDef, audio: string): unknown {
  if (!(err instanceof MmApiError) || (err.status !== 400 && err.status !== 413)) return err;
  const others = Object.keys(tool.inputSchema.properties as object).filter((name) => !audio.startsWith(`${name} `));
  if (others.some((name) => new RegExp(`\\b${name}\\b`).test(err.message))) return err;
  return new MmApiError(err.status, err.code, `${audio}: ${err.message}`, err.details, err.retryAfterSeconds);
}

/** Waits; with `naming: "skip"` a stop at NAMING skips naming and waits on (a NOT_NAMING means it went on). */
async function waitThrough(deps: CallDeps, args: Record<string, unknown>, ctx: CallContext): Promise<RecordingStatus> {
  const id = args.id as string;
  for (;;) {
    const status = await waitWithProgress(deps, id, ctx);
    if (status.status !== 'NAMING' || args.naming !== 'skip') return status;
    await deps.client.skipNaming(id).catch((err: unknown) => {
      if (!(err instanceof MmApiError && err.code === 'NOT_NAMING')) throw err;
    });
  }
}

/** Waits for a meeting, sending a progress notification at each new status (progress only grows). */
async function waitWithProgress(deps: CallDeps, id: string, ctx: CallContext): Promise<RecordingStatus> {
  let last = 0;
  let lastStatus = '';
  const pollMs = deps.pollMaxSeconds * 1000;
  const pending: Promise<void>[] = [];
  const report = (status: string) => {
    if (status === lastStatus) return;
    lastStatus = status;
    const step = status === 'FAILED' ? STEPS.length : STEPS.indexOf(status) + 1;
    last = step > last ? step : last + 0.1;
    pending.push(ctx.progress(last, STEPS.length, status));
  };
  const final = await deps.client.waitForReady(id, {
    signal: ctx.signal,
    schedule: { firstMs: Math.min(5000, pollMs), maxMs: pollMs },
    onProgress: (s) => report(s.status),
  });
  // The status the wait ended on is always the last notification, whichever poll saw it first.
  report(final.status);
  await Promise.all(pending);
  return final;
}
