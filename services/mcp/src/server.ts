import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import { findRoute, SCOPES } from '@mm/contract';
import { fileURLToPath } from 'node:url';
import { missingPromptArguments, promptMessages, promptsFor } from './domain/prompts';
import { argumentProblem } from './domain/tool-arguments';
import { admits, toolsFor, type ToolDef } from './domain/tools';
import { callTool, toolError, toolErrorOf, type CallDeps } from './services/call-tool';
import { faultOf, ProtocolError, resourceError } from './services/faults';
import type { TokenIdentity } from './services/token-identity';

const BUNDLE_URI = /^mm:\/\/recordings\/([^/]+)\/bundle\.md$/;

/**
 * An MCP server for one token: the tools its scopes admit (from the route table), each meeting's
 * bundle as a Markdown resource (`mm://recordings/{id}/bundle.md`) when it may read bundles.
 * While the token's scopes are unknown (the service did not answer whoami), it lists every tool and
 * each call answers why the service cannot be asked; once whoami answers, the client is told to list again.
 */
export function buildServer(deps: CallDeps, identity: TokenIdentity): Server {
  const opts = { transport: deps.transport, audioByUrl: deps.audioUrlHosts.length > 0 };
  const everyTool = toolsFor(SCOPES, opts);
  const serviceUrl = deps.client.options.url;
  const bundleRoute = findRoute('getRecordingBundle')!;
  const known = identity.known;
  const canRead = !known || admits(bundleRoute, known.token.scopes);
  const server = new Server(
    { name: 'meeting-memory', version: '1.0.0' },
    {
      capabilities: { tools: { listChanged: true }, prompts: {}, ...(canRead ? { resources: {} } : {}) },
      instructions:
        'Meeting Memory: submit a meeting, wait for it, read it (Markdown; also the resource ' +
        'mm://recordings/{id}/bundle.md), search meetings and ask them. Tools that spend minutes say so; ' +
        'errors carry a code.',
    },
  );

  let listedEvery = false;
  /** The tools the token's scopes admit; throws while whoami cannot be answered. */
  const admitted = async (): Promise<ToolDef[]> => {
    const learnedNow = !identity.known;
    const who = await identity.learn();
    if (learnedNow && listedEvery) {
      listedEvery = false;
      void server.sendToolListChanged().catch(() => undefined);
    }
    return toolsFor(who.token.scopes, opts);
  };

  server.setRequestHandler(ListToolsRequestSchema, async () => {
    let tools: ToolDef[];
    try {
      tools = await admitted();
    } catch (err) {
      if (!faultOf(err, serviceUrl)) throw err;
      listedEvery = true;
      tools = everyTool;
    }
    return { tools: tools.map(listed) };
  });

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const name = req.params.name;
    const exists = everyTool.find((t) => t.name === name);
    // A tool that does not exist is the caller's mistake about this server, not about the token.
    if (!exists) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown tool: ${name}`);
    let tools: ToolDef[];
    try {
      tools = await admitted();
    } catch (err) {
      return toolErrorOf(err, serviceUrl);
    }
    // The scope first, as the API does: a tool the token may not call is refused whatever its arguments.
    const tool = tools.find((t) => t.name === name);
    if (!tool) return toolError({ code: 'TOKEN_SCOPE', message: scopeMessage(exists) });
    const args = req.params.arguments ?? {};
    const problem = argumentProblem(tool, args);
    if (problem) return toolError({ code: 'VALIDATION', message: problem });
    const progressToken = req.params._meta?.progressToken;
    return callTool(deps, tool, args, {
      signal: extra.signal,
      tools,
      roots: () => clientRoots(server),
      progress: async (progress, total, message) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, total, message },
        });
      },
    });
  });

  server.setRequestHandler(ListPromptsRequestSchema, async () => ({ prompts: promptsFor() }));
  server.setRequestHandler(GetPromptRequestSchema, async (req) => {
    const args = req.params.arguments ?? {};
    const messages = promptMessages(req.params.name, args);
    if (!messages) throw new ProtocolError(ErrorCode.InvalidParams, `Unknown prompt: ${req.params.name}`);
    const missing = missingPromptArguments(req.params.name, args);
    if (missing.length)
      throw new ProtocolError(ErrorCode.InvalidParams, `Prompt ${req.params.name} needs: ${missing.join(', ')}`);
    return messages;
  });

  if (canRead) serveBundles(server, deps, identity);
  return server;
}

/** The folders the MCP client shares as roots (`file:` URIs); none when it has no roots capability. */
async function clientRoots(server: Server): Promise<string[]> {
  if (!server.getClientCapabilities()?.roots) return [];
  const { roots } = await server.listRoots();
  return roots.filter((r) => r.uri.startsWith('file://')).map((r) => fileURLToPath(r.uri));
}

/** Each READY meeting's bundle as a Markdown resource. */
function serveBundles(server: Server, deps: CallDeps, identity: TokenIdentity): void {
  const bundleRoute = findRoute('getRecordingBundle')!;
  const listRoute = findRoute('listReadyRecordings')!;
  const markdown = bundleRoute.responses.find((r) => r.contentType === 'text/markdown')!;
  // A contract error or an unreachable service as a protocol error, its message said once.
  const asked = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      const fault = faultOf(err, deps.client.options.url);
      throw fault ? resourceError(fault) : err;
    }
  };

  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: 'mm://recordings/{id}/bundle.md',
        name: 'bundle',
        title: bundleRoute.summary.en,
        description: `${markdown.schema.description} Readable once the meeting is READY (before that: NOT_READY).`,
        mimeType: 'text/markdown',
      },
    ],
  }));
  server.setRequestHandler(ListResourcesRequestSchema, async (req) =>
    asked(async () => {
      if (!admits(listRoute, (await identity.learn()).token.scopes)) return { resources: [] };
      const page = await deps.client.listReady({
        limit: 100,
        ...(req.params?.cursor ? { cursor: req.params.cursor } : {}),
      });
      return {
        resources: page.items.map((i) => ({
          uri: `mm://recordings/${i.id}/bundle.md`,
          name: i.displayTitle,
          mimeType: 'text/markdown',
          description: `${i.recordedAt} ${i.kind}`,
        })),
        ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}),
      };
    }),
  );
  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const m = BUNDLE_URI.exec(req.params.uri);
    if (!m) throw resourceError({ code: 'NOT_FOUND', message: `no resource ${req.params.uri}` });
    const text = await asked(() => deps.client.bundleMarkdown(decodeURIComponent(m[1])));
    return { contents: [{ uri: req.params.uri, mimeType: 'text/markdown', text }] };
  });
}

/**
 * A tool as tools/list shows it, compact for a model: no empty `required` or `_meta`, and no
 * `additionalProperties` (an unknown argument is still refused, naming the known ones).
 */
function listed(t: ToolDef) {
  const { name, description, outputSchema, annotations, _meta } = t;
  const { additionalProperties: _closed, required, ...input } = t.inputSchema;
  return {
    name,
    description,
    inputSchema: { ...input, ...((required as string[]).length ? { required } : {}) },
    outputSchema,
    annotations,
    ...(Object.keys(_meta).length ? { _meta } : {}),
  };
}

function scopeMessage(tool: ToolDef): string {
  const scopes = tool.route.scopes === 'any' ? [] : tool.route.scopes;
  return `${tool.name} needs the scope ${scopes.join(' or ')}, which this token does not have`;
}
