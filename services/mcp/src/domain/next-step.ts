/**
 * What an agent does after `waitForRecording` stopped where the meeting cannot go on by the
 * agent's waiting alone: at NAMING (a person names the speakers, or the agent skips naming) and
 * at a FAILED that can be retried. Only tools the token has are offered as calls. Pure.
 */
import { findRoute, namingStopSentence, type JsonSchema } from '@mm/contract';
import { WAIT_TOOL, type ToolDef } from './tools';

/** The part of a meeting's status the next step depends on. */
export interface StoppedStatus {
  id: string;
  status: string;
  naming?: { url: string; deadline: string | null } | null;
  error?: { code: string; retryable: boolean } | null;
}

export interface NextStep {
  /** What to do, in plain words. */
  message: string;
  /** The calls that go on, in order, with their arguments; only tools this token has. */
  calls: { name: string; arguments: Record<string, unknown> }[];
}

export function nextStep(s: StoppedStatus, tools: readonly ToolDef[]): NextStep | null {
  if (s.status === 'NAMING' && s.naming) return atNaming(s, s.naming, tools);
  if (s.status === 'FAILED' && s.error?.retryable) return retryable(s, s.error.code, tools);
  return null;
}

function atNaming(
  s: StoppedStatus,
  naming: { url: string; deadline: string | null },
  tools: readonly ToolDef[],
): NextStep {
  const skip = offered('skipRecordingNaming', s.id, tools);
  const handOver = `Hand naming.url to the person who can name the speakers, then call ${WAIT_TOOL} again.`;
  if (!skip.call) return { message: `${namingStopSentence(naming, skip.unavailable)} ${handOver}`, calls: [] };
  return {
    message: `${namingStopSentence(naming, `call skipRecordingNaming with the id, then ${WAIT_TOOL}`)} ${handOver}`,
    calls: [skip.call, ...waitAgain(s.id, tools)],
  };
}

function retryable(s: StoppedStatus, code: string, tools: readonly ToolDef[]): NextStep {
  const retry = offered('retryRecording', s.id, tools);
  const failed = `The meeting failed (${code}) and can be retried at no extra cost`;
  if (!retry.call) return { message: `${failed}: ${retry.unavailable} can retry it.`, calls: [] };
  return {
    message: `${failed}: call retryRecording with the id, then ${WAIT_TOOL}.`,
    calls: [retry.call, ...waitAgain(s.id, tools)],
  };
}

/** The call of a route's tool for this meeting, or why the token cannot make it. */
function offered(operationId: string, id: string, tools: readonly ToolDef[]) {
  const tool = tools.find((t) => t.name === operationId);
  if (tool) return { call: { name: tool.name, arguments: argumentsFor(tool, id) } };
  const scopes = findRoute(operationId)!.scopes;
  const needs = scopes === 'any' ? '' : ` (needs the scope ${scopes.join(' or ')}, which this token does not have)`;
  return { unavailable: `${operationId}${needs}` };
}

function waitAgain(id: string, tools: readonly ToolDef[]) {
  return tools.some((t) => t.name === WAIT_TOOL) ? [{ name: WAIT_TOOL, arguments: { id } }] : [];
}

/** The meeting's id and every required argument the schema allows only one value for (`action: "skip"`). */
function argumentsFor(tool: ToolDef, id: string): Record<string, unknown> {
  const args: Record<string, unknown> = { id };
  const properties = tool.inputSchema.properties as Record<string, JsonSchema>;
  for (const name of (tool.inputSchema.required ?? []) as string[]) {
    const values = properties[name]?.enum as unknown[] | undefined;
    if (name !== 'id' && values?.length === 1) args[name] = values[0];
  }
  return args;
}
