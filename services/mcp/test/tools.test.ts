import { ROUTES, SCOPES, SPENDING_SCOPES } from '@mm/contract';
import { toolsFor } from '../src/domain/tools';

describe('tools from the route table', () => {
  it('gives every route a tool for a token with every scope, described and shaped by the contract', () => {
    const tools = toolsFor(SCOPES, { transport: 'stdio', audioByUrl: false });
    expect(tools.filter((t) => t.kind === 'route').map((t) => t.name)).toEqual(ROUTES.map((r) => r.operationId));
    const ask = tools.find((t) => t.name === 'askRecording')!;
    expect(ask.description.startsWith(`${ask.route.summary.en}. ${ask.route.description.en}`)).toBe(true);
    expect(ask.inputSchema.required).toEqual(expect.arrayContaining(['id', 'question']));
    expect(ask.inputSchema.properties).toHaveProperty('idempotencyKey');
    expect(ask.quote?.operationId).toBe('quoteRecordingAsk');
    expect(tools.find((t) => t.name === 'askSeries')!.quote?.operationId).toBe('quoteSeriesAsk');
  });

  it('shows no spending tool to a token without a spending scope', () => {
    const tools = toolsFor(
      SCOPES.filter((s) => !SPENDING_SCOPES.includes(s)),
      { transport: 'stdio', audioByUrl: true },
    );
    expect(tools.length).toBeGreaterThan(5);
    expect(tools.filter((t) => t.route.spends)).toEqual([]);
  });

  it('takes a local path over stdio, a URL over HTTP only when the operator allows fetching', () => {
    const submitOf = (transport: 'stdio' | 'http', audioByUrl: boolean) =>
      toolsFor(['recordings:write'], { transport, audioByUrl }).find((t) => t.name === 'submitRecording');
    expect(submitOf('stdio', false)!.inputSchema.required).toContain('path');
    expect(submitOf('http', true)!.inputSchema.required).toContain('audioUrl');
    expect(submitOf('http', false)).toBeUndefined();
    expect(submitOf('stdio', false)!.inputSchema.properties).not.toHaveProperty('audio');
  });
});
