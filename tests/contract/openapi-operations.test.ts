import { buildOpenApi } from '@mm/contract';
import { operationsOf, resolveRef, type Json } from './openapi-walk';

/**
 * Written by hand from API-CONTRACT.md (Endpoints, Authentication scopes, Limits), not from
 * libs/contract: method, path, operationId, scopes, spends, rate class, success status.
 */
const EXPECTED: [string, string, string, string[], boolean, string, number][] = [
  ['get', '/whoami', 'whoami', ['any'], false, 'read', 200],
  ['get', '/recordings/ready', 'listReadyRecordings', ['recordings:read'], false, 'read', 200],
  ['get', '/recordings/search', 'searchRecordings', ['recordings:query'], false, 'search', 200],
  ['get', '/recordings/{id}/ask/quote', 'quoteRecordingAsk', ['recordings:query'], false, 'search', 200],
  ['post', '/recordings/{id}/ask', 'askRecording', ['recordings:query'], true, 'ask', 200],
  ['get', '/recordings/{id}/bundle', 'getRecordingBundle', ['recordings:read'], false, 'read', 200],
  ['get', '/recordings/{id}/status', 'getRecordingStatus', ['recordings:read', 'recordings:write'], false, 'read', 200],
  ['post', '/recordings', 'submitRecording', ['recordings:write'], true, 'submit', 202],
  ['post', '/recordings/{id}/naming', 'skipRecordingNaming', ['recordings:write'], false, 'submit', 200],
  ['post', '/recordings/{id}/retry', 'retryRecording', ['recordings:write'], false, 'submit', 200],
  ['get', '/events', 'listEvents', ['recordings:read', 'recordings:write'], false, 'read', 200],
  ['get', '/series/readable', 'listReadableSeries', ['series:read'], false, 'read', 200],
  ['get', '/series/{id}', 'getSeries', ['series:read'], false, 'read', 200],
  ['post', '/series', 'createSeries', ['series:write'], false, 'settings', 201],
  ['patch', '/series/{id}', 'updateSeries', ['series:write'], false, 'settings', 200],
  ['get', '/series/{id}/keyterms', 'getSeriesKeyterms', ['series:read'], false, 'read', 200],
  ['put', '/series/{id}/keyterms', 'replaceSeriesKeyterms', ['series:write'], false, 'settings', 200],
  ['get', '/series/{id}/ask/quote', 'quoteSeriesAsk', ['series:query'], false, 'search', 200],
  ['post', '/series/{id}/ask', 'askSeries', ['series:query'], true, 'ask', 200],
  ['get', '/account', 'getAccount', ['account:read'], false, 'read', 200],
  ['get', '/account/keyterms', 'getAccountKeyterms', ['account:read'], false, 'read', 200],
  ['put', '/account/keyterms', 'replaceAccountKeyterms', ['account:write'], false, 'settings', 200],
  ['get', '/account/memory', 'listMemory', ['account:read'], false, 'read', 200],
  ['patch', '/account/settings', 'updateAccountSettings', ['account:write'], false, 'settings', 200],
  ['patch', '/account/memory/{id}', 'updateMemoryItem', ['account:write'], false, 'settings', 200],
  ['delete', '/account/memory/{id}', 'deleteMemoryItem', ['account:write'], false, 'settings', 200],
];

/** Limits: requests per 600 s by class. */
const BUDGETS: Record<string, number> = { read: 600, submit: 30, search: 120, ask: 30, settings: 60 };

/** Idempotency: the three spending routes take the header; other routes take no key. */
const TAKES_IDEMPOTENCY_KEY = ['submitRecording', 'askRecording', 'askSeries'];

const doc = buildOpenApi({ serverUrl: 'http://127.0.0.1:8080/api/v1/' }) as Json;
const ops = operationsOf(doc);
const byId = new Map(ops.map((o) => [o.op.operationId as string, o]));

describe('openapi.json against the contract text', () => {
  it('is OpenAPI 3.1.0, info version 1, one server without trailing slash, bearer security everywhere', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect((doc.info as Json).version).toBe('1');
    expect(typeof (doc.info as Json).title).toBe('string');
    expect(doc.servers).toEqual([expect.objectContaining({ url: 'http://127.0.0.1:8080/api/v1' })]);
    expect((doc.components as Json).securitySchemes).toEqual({
      bearer: expect.objectContaining({ type: 'http', scheme: 'bearer' }),
    });
    expect(doc.security).toEqual([{ bearer: [] }]);
  });

  it("holds exactly the contract's operations, each once, with unique operationIds", () => {
    expect(ops.map((o) => o.op.operationId).sort()).toEqual(EXPECTED.map((e) => e[2]).sort());
    expect(new Set(ops.map((o) => o.op.operationId)).size).toBe(ops.length);
    expect(ops).toHaveLength(26);
  });

  it.each(EXPECTED)(
    '%s %s is %s with its scopes, spends flag and rate limit',
    (method, path, operationId, scopes, spends, rateClass, success) => {
      const found = byId.get(operationId);
      expect(found).toBeDefined();
      const { op } = found!;
      expect(found!.method).toBe(method);
      expect(found!.path).toBe(path);
      expect(op['x-svc-scopes']).toEqual(scopes);
      expect(op['x-svc-spends']).toBe(spends);
      expect(op['x-svc-rate-limit']).toEqual({ class: rateClass, requests: BUDGETS[rateClass], windowSeconds: 600 });
      expect(Object.keys(op.responses as Json).filter((s) => s.startsWith('2'))).toEqual([String(success)]);
      expect(Array.isArray(op.tags) && (op.tags as string[]).length).toBe(1);
    },
  );

  it.each(EXPECTED.map((e) => [e[2]]))(
    '%s documents the gateway checks 401, 403 and 429 with the error envelope',
    (operationId) => {
      const responses = byId.get(operationId)!.op.responses as Json;
      for (const status of ['401', '403', '429', '500']) {
        const r = responses[status] as Json;
        expect(r).toBeDefined();
        expect(resolveRef(doc, ((r.content as Json)['application/json'] as Json).schema as Json)).toBe(
          (doc.components as Json & { schemas: Json }).schemas.Error,
        );
      }
      expect((responses['401'] as Json)['x-svc-error-codes']).toEqual([
        'UNAUTHORIZED',
        'TOKENS_DISABLED',
        'TOKEN_INVALID',
      ]);
      expect((responses['429'] as Json)['x-svc-error-codes']).toContain('RATE_LIMITED');
      expect((responses['429'] as Json).headers).toHaveProperty('Retry-After');
      const forbidden = (responses['403'] as Json)['x-svc-error-codes'] as string[];
      expect(forbidden).toEqual(expect.arrayContaining(['DEVELOPER_MODE_OFF', 'PENDING_APPROVAL']));
      expect(forbidden.includes('TOKEN_SCOPE')).toBe(operationId !== 'whoami');
    },
  );

  it('answers SCOPE_DISABLED only on routes reachable by a switched scope', () => {
    const switched = ['recordings:write', 'recordings:query', 'series:write', 'series:query', 'account:write'];
    for (const [, , operationId, scopes] of EXPECTED) {
      const codes = ((byId.get(operationId)!.op.responses as Json)['403'] as Json)['x-svc-error-codes'] as string[];
      expect([operationId, codes.includes('SCOPE_DISABLED')]).toEqual([
        operationId,
        scopes.some((s) => switched.includes(s)),
      ]);
    }
  });

  it('takes an Idempotency-Key header on the three spending routes only', () => {
    for (const { op } of ops) {
      const headers = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'header').map((p) => p.name);
      expect([op.operationId, headers]).toEqual([
        op.operationId,
        TAKES_IDEMPOTENCY_KEY.includes(op.operationId as string) ? ['Idempotency-Key'] : [],
      ]);
    }
  });

  it('offers the bundle as JSON and as text/markdown, and its 409 in the older NOT_READY shape', () => {
    const responses = byId.get('getRecordingBundle')!.op.responses as Json;
    expect(Object.keys((responses['200'] as Json).content as Json).sort()).toEqual([
      'application/json',
      'text/markdown',
    ]);
    const conflict = responses['409'] as Json;
    expect(conflict['x-svc-error-codes']).toEqual(['NOT_READY']);
    expect(((conflict.content as Json)['application/json'] as Json).schema).toEqual({
      $ref: '#/components/schemas/NotReadyError',
    });
  });

  it('takes submitRecording as multipart/form-data with every part', () => {
    const body = byId.get('submitRecording')!.op.requestBody as Json;
    const schema = ((body.content as Json)['multipart/form-data'] as Json).schema as Json;
    expect(Object.keys(schema.properties as Json).sort()).toEqual(
      [
        'attachment',
        'audio',
        'kind',
        'naming',
        'outputLanguage',
        'recordedAt',
        'seriesId',
        'title',
        'useKeyterms',
      ].sort(),
    );
    expect(schema.required).toEqual(['audio']);
    expect(schema.additionalProperties).toBe(false);
  });

  it('declares every path parameter of a path on its operations', () => {
    for (const { path, op } of ops) {
      const declared = ((op.parameters ?? []) as Json[]).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared).toEqual([...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]));
    }
  });

  it('lists only routes a token can call: app-only routes are absent', () => {
    const paths = doc.paths as Record<string, Json>;
    expect(paths['/recordings/{id}']).toBeUndefined();
    expect(paths['/tokens']).toBeUndefined();
    expect(paths['/series/{id}']?.delete).toBeUndefined();
  });
});
