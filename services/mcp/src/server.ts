import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  McpError,
  ErrorCode,
} from '@modelcontextprotocol/sdk/types.js';
import { findRoute } from '@mm/contract';
import { MmApiError, type WhoAmI } from '@mm/sdk';
import { admits, toolsFor } from './domain/tools';
import { callTool, toolError, type CallDeps } from './services/call-tool';

const BUNDLE_URI = /^mm:\/\/recordings\/([^/]+)\/bundle\.md$/;

/**
 * An MCP server for one token: the tools its scopes admit (from the route table), each meeting's
 * bundle as a Markdown resource (`mm://recordings/{id}/bundle.md`) when it may read bundles.
 */
export function buildServer(deps: CallDeps, who: WhoAmI): Server {
  const tools = toolsFor(who.token.scopes, { transport: deps.transport, audioByUrl: deps.audioUrlHosts.length > 0 });
  const bundleRoute = findRoute('getRecordingBundle')!;
  const listRoute = findRoute('listReadyRecordings')!;
  const canRead = admits(bundleRoute, who.token.scopes);
  const server = new Server(
    { name: 'meeting-memory', version: '1.0.0' },
    {
      capabilities: { tools: {}, ...(canRead ? { resources: {} } : {}) },
      instructions:
        'Meeting Memory: submit a meeting, wait for it (progress is notified), read its bundle (also the resource mm://recordings/{id}/bundle.md), ' +
        "search meetings and ask them. Tools that spend minutes say so and state their price; errors carry the API's code.",
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: tools.map((t) => ({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema,
      annotations: t.annotations,
      _meta: t._meta,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (req, extra) => {
    const tool = tools.find((t) => t.name === req.params.name);
    if (!tool) return toolError('TOKEN_SCOPE', `no tool ${req.params.name} for this token`);
    const progressToken = req.params._meta?.progressToken;
    return callTool(deps, tool, req.params.arguments ?? {}, {
      signal: extra.signal,
      progress: async (progress, total, message) => {
        if (progressToken === undefined) return;
        await extra.sendNotification({
          method: 'notifications/progress',
          params: { progressToken, progress, total, message },
        });
      },
    });
  });

  if (canRead) {
    server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
      resourceTemplates: [
        {
          uriTemplate: 'mm://recordings/{id}/bundle.md',
          name: 'bundle',
          title: bundleRoute.summary.en,
          description: bundleRoute.description.en,
          mimeType: 'text/markdown',
        },
      ],
    }));
    server.setRequestHandler(ListResourcesRequestSchema, async (req) => {
      if (!admits(listRoute, who.token.scopes)) return { resources: [] };
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
    });
    server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
      const m = BUNDLE_URI.exec(req.params.uri);
      if (!m) throw new McpError(ErrorCode.InvalidParams, `unknown resource ${req.params.uri}`);
      try {
        const text = await deps.client.bundleMarkdown(decodeURIComponent(m[1]));
        return { contents: [{ uri: req.params.uri, mimeType: 'text/markdown', text }] };
      } catch (err) {
        if (err instanceof MmApiError)
          throw new McpError(ErrorCode.InvalidParams, `${err.code}: ${err.message}`, {
            code: err.code,
            details: err.details,
          });
        throw err;
      }
    });
  }
  return server;
}
