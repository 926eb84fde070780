import { ROUTES, SCOPES, SPENDING_SCOPES } from '@mm/contract';
import { toolsFor } from '../src/domain/tools';

describe('tools from the route table', () => {
  it('gives every route a tool for a token with every scope, described and shaped by the contract', () => {
    const opts = { transport: 'stdio', audioByUrl: false } as const;
    const tools = toolsFor(SCOPES, opts);
    // The Ask quotes are not listed beside their Ask (which quotes first itself).
    const quotes = ['quoteRecordingAsk', 'quoteSeriesAsk'];
    expect(tools.filter((t) => t.kind === 'route').map((t) => t.name)).toEqual(
      ROUTES.map((r) => r.operationId).filter((n) => !quotes.includes(n)),
    );
    const ask = tools.find((t) => t.name === 'askRecording')!;
    expect(ask.description.startsWith(`${ask.route.summary.en}.`)).toBe(true);
    expect(ask.inputSchema.required).toEqual(expect.arrayContaining(['id', 'question']));
    // The key is the caller's to give, to repeat a request whose answer was lost; left out, each call is new.
    for (const t of tools.filter((x) => x.route.spends)) {
      expect([t.name, t.inputSchema.properties]).toEqual([
        t.name,
        expect.objectContaining({
          idempotencyKey: expect.objectContaining({ type: 'string', minLength: 8, maxLength: 64 }),
        }),
      ]);
      expect(t.inputSchema.required).not.toContain('idempotencyKey');
    }
    for (const t of tools.filter((x) => !x.route.spends))
      expect([t.name, t.inputSchema.properties]).toEqual([
        t.name,
        expect.not.objectContaining({ idempotencyKey: expect.anything() }),
      ]);
    for (const t of tools) expect([t.name, t.outputSchema.type]).toEqual([t.name, 'object']);
    expect(ask.quote?.operationId).toBe('quoteRecordingAsk');
    expect(tools.find((t) => t.name === 'askSeries')!.quote?.operationId).toBe('quoteSeriesAsk');
  });

  it('cuts argument descriptions at a clause, never mid-rule with an ellipsis', () => {
    const tools = toolsFor(SCOPES, { transport: 'stdio', audioByUrl: false });
    const descriptions: string[] = [];
    const walk = (v: unknown): void => {
      if (!v || typeof v !== 'object') return;
      const d = (v as { description?: unknown }).description;
      if (typeof d === 'string') descriptions.push(d);
      for (const x of Object.values(v)) walk(x);
    };
    for (const t of tools) walk(t.inputSchema.properties);
    expect(descriptions.filter((d) => d.endsWith('…'))).toEqual([]);
    const properties = tools.find((t) => t.name === 'replaceAccountKeyterms')!.inputSchema.properties as Record<
      string,
      { items: { description: string } }
    >;
    expect(properties.keyterms.items.description).toMatch(
      /^One term: trimmed, runs of spaces collapsed, then 1 to \d+ characters and at most \d+ words\.$/,
    );
  });

  it('describes every argument, and an Ask with its quote says the quote is the cap', () => {
    for (const transport of ['stdio', 'http'] as const)
      for (const t of toolsFor(SCOPES, { transport, audioByUrl: true }))
        for (const [name, schema] of Object.entries(
          t.inputSchema.properties as Record<string, { description?: string }>,
        ))
          expect([t.name, name, schema.description]).toEqual([t.name, name, expect.stringMatching(/\w.*\.$/)]);
    // A rule cut short reads as nonsense ("Series name: whitespace runs."): the series name says its bounds.
    for (const name of ['createSeries', 'updateSeries']) {
      const tool = toolsFor(SCOPES, { transport: 'stdio', audioByUrl: false }).find((t) => t.name === name)!;
      expect((tool.inputSchema.properties as Record<string, { description: string }>).name.description).toMatch(
        /^Series name, 1 to \d+ characters/,
      );
    }
    const asks = toolsFor(SCOPES, { transport: 'stdio', audioByUrl: false }).filter((t) => t.name.startsWith('ask'));
    expect(asks).toHaveLength(2);
    for (const ask of asks) {
      expect(ask.description).toMatch(/quoted first \(free\) and never exceeded/);
      const maxMinutes = (ask.inputSchema.properties as Record<string, { description: string }>).maxMinutes;
      expect(maxMinutes.description).toMatch(/Left out, the free quote asked first is the cap/);
      expect(maxMinutes.description).not.toMatch(/whatever/);
    }
  });

  it('hints a replacing PUT and a DELETE as destructive, a POST or PATCH as not', () => {
    const tools = toolsFor(SCOPES, { transport: 'stdio', audioByUrl: false });
    const hints = (name: string) => tools.find((t) => t.name === name)!.annotations;
    expect(hints('replaceAccountKeyterms')).toEqual({ idempotentHint: true });
    expect(hints('replaceSeriesKeyterms')).toEqual({ idempotentHint: true });
    expect(hints('deleteMemoryItem')).toEqual({ idempotentHint: true });
    expect(hints('updateSeries')).toEqual({ destructiveHint: false });
    expect(hints('askRecording')).toEqual({ destructiveHint: false });
  });

  it('names the properties of every field an output schema requires', () => {
    const walk = (name: string, s: unknown): void => {
      if (!s || typeof s !== 'object') return;
      const { required, properties } = s as { required?: string[]; properties?: Record<string, unknown> };
      for (const field of required ?? [])
        expect([name, field, properties?.[field]]).toEqual([name, field, expect.anything()]);
      for (const v of Object.values(s)) walk(name, v);
    };
    for (const t of toolsFor(SCOPES, { transport: 'http', audioByUrl: true })) walk(t.name, t.outputSchema);
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

  it("describes each tool by its arguments, never the HTTP route's header, body encoding or status", () => {
    const headers = ROUTES.flatMap((r) => r.params.filter((p) => p.in === 'header').map((p) => p.name));
    expect(headers.length).toBeGreaterThan(0);
    for (const [transport, audio] of [
      ['stdio', 'path'],
      ['http', 'audioUrl'],
    ] as const) {
      const tools = toolsFor(SCOPES, { transport, audioByUrl: true });
      for (const t of tools) {
        for (const h of headers) expect([t.name, t.description]).toEqual([t.name, expect.not.stringContaining(h)]);
        expect([t.name, t.description]).toEqual([
          t.name,
          expect.not.stringMatching(/multipart|form-data|answers 2\d\d/),
        ]);
        expect([t.name, t.description]).toEqual([t.name, expect.not.stringMatching(/\b[1-5]\d\d\b|HTTP/)]);
        if (t.route.spends)
          expect(t.description).toMatch(
            /Each call is a new request; the same idempotencyKey sent again returns the first result, charged once/,
          );
      }
      const submit = tools.find((t) => t.name === 'submitRecording')!;
      expect(submit.description).toContain(`\`${audio}\``);
      expect(submit.description).toMatch(/^Submit a meeting\. /);
    }
  });
});
