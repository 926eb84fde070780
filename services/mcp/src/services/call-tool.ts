import { MmApiError, newIdempotencyKey, type MeetingMemory, type RecordingStatus, type SubmitInput } from '@mm/sdk';
import type { RouteDef } from '@mm/contract';
import { nextStep } from '../domain/next-step';
import { argumentName, type ToolDef } from '../domain/tools';
import { audioPath } from './audio-path';
import { fetchAudio } from './audio-url';
import { faultOf, faultText, type Fault } from './faults';

export interface CallDeps {
  client: MeetingMemory;
  transport: 'stdio' | 'http';
  audioUrlHosts: readonly string[];
  pollMaxSeconds: number;
}

export interface CallContext {
  signal: AbortSignal;
  /** The tools the token has: a wait that stops short of READY offers only these as next calls. */
  tools: readonly ToolDef[];
  /** Sends an MCP progress notification when the caller asked for progress. */
  progress: (progress: number, total: number, message: string) => Promise<void>;
}

export interface ToolResult {
  [key: string]: unknown;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

const STEPS = ['QUEUED', 'TRANSCRIBING', 'NAMING', 'GENERATING', 'READY'];

/**
 * Runs a tool whose arguments fit its inputSchema (checked before): the route's call with the
 * arguments split into path, query, header and body, or the wait loop. A contract error comes back
 * as a tool error carrying its code (never thrown). Spending calls are not cut short by a cancel:
 * with their key, a repeat returns the stored result.
 */
export async function callTool(
  deps: CallDeps,
  tool: ToolDef,
  args: Record<string, unknown>,
  ctx: CallContext,
): Promise<ToolResult> {
  try {
    if (tool.kind === 'wait') return waited(await waitWithProgress(deps, args.id as string, ctx), ctx.tools);
    if (tool.route.operationId === 'submitRecording') return json(await submit(deps, tool, args));
    return await callRoute(deps, tool, args, tool.route.spends ? undefined : ctx.signal);
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

function json(value: unknown): ToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(value) }],
    structuredContent: value as Record<string, unknown>,
  };
}

async function callRoute(
  deps: CallDeps,
  tool: ToolDef,
  args: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<ToolResult> {
  const route = tool.route;
  const values = { ...args };
  const headers: Record<string, string> = {};
  for (const p of route.params.filter((q) => q.in === 'header')) {
    const name = argumentName(p);
    // A spending call always carries a key: the SDK's retries of a lost reply then charge once.
    const value = values[name] ?? (route.spends ? newIdempotencyKey() : undefined);
    if (value !== undefined) headers[p.name] = String(value);
    delete values[name];
  }
  if (tool.quote && values.maxMinutes === undefined) {
    const quote = await request(deps, tool.quote, { id: values.id }, undefined);
    values.maxMinutes = ((await quote.json()) as { minutes: number }).minutes;
  }
  const res = await request(deps, route, values, signal, headers);
  if ((res.headers.get('content-type') ?? '').startsWith('text/'))
    return { content: [{ type: 'text', text: await res.text() }] };
  return json(await res.json());
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

async function submit(deps: CallDeps, tool: ToolDef, args: Record<string, unknown>) {
  const { path, audioUrl, idempotencyKey, useKeyterms, ...parts } = args as Record<string, string | undefined> & {
    useKeyterms?: boolean;
  };
  let audio: SubmitInput['audio'];
  let filename: string | undefined;
  if (deps.transport === 'stdio') {
    audio = await audioPath(path!);
  } else {
    const limits = (await deps.client.whoami()).limits;
    ({ audio, filename } = await fetchAudio(audioUrl!, deps.audioUrlHosts, limits.maxUploadMb * 1024 * 1024));
  }
  const input = {
    audio,
    filename,
    idempotencyKey,
    title: parts.title,
    seriesId: parts.seriesId,
    kind: parts.kind as SubmitInput['kind'],
    outputLanguage: parts.outputLanguage as SubmitInput['outputLanguage'],
    naming: parts.naming as SubmitInput['naming'],
    recordedAt: parts.recordedAt,
    useKeyterms,
  };
  try {
    return await deps.client.submitRecording(input);
  } catch (err) {
    throw namingTheAudio(err, tool, deps.transport === 'stdio' ? `path ${path}` : `audioUrl ${audioUrl}`);
  }
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
