import {
  ERROR_CODES,
  GATEWAY_CHECK_CODES,
  RATE_CLASSES,
  ROUTES,
  SCOPES,
  binaryPartsOf,
  nullable,
  routeErrorCodes,
  routeErrorsByStatus,
  trimmedLengthPattern,
  withoutBinaryParts,
} from '@mm/contract';

describe('the route table', () => {
  it('names only error codes of the catalog', () => {
    const unknown = ROUTES.flatMap((r) =>
      r.errors.filter((c) => !(c in ERROR_CODES)).map((c) => `${r.operationId}: ${c}`),
    );
    expect(unknown).toEqual([]);
  });

  it("does not list the gateway's own checks among a route's errors (they are added for every route)", () => {
    const doubled = ROUTES.flatMap((r) =>
      r.errors
        .filter((c) => (GATEWAY_CHECK_CODES as readonly string[]).includes(c))
        .map((c) => `${r.operationId}: ${c}`),
    );
    expect(doubled).toEqual([]);
  });

  it('uses known scopes, rate classes, unique operationIds and unique method+path pairs', () => {
    for (const r of ROUTES) {
      if (r.scopes !== 'any') for (const s of r.scopes) expect(SCOPES).toContain(s);
      expect(Object.keys(RATE_CLASSES)).toContain(r.rateClass);
    }
    expect(new Set(ROUTES.map((r) => r.operationId)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map((r) => `${r.method} ${r.path}`)).size).toBe(ROUTES.length);
  });

  it('marks exactly the routes of spending scopes that spend (submit and the two Asks)', () => {
    expect(
      ROUTES.filter((r) => r.spends)
        .map((r) => r.operationId)
        .sort(),
    ).toEqual(['askRecording', 'askSeries', 'submitRecording']);
  });

  it('gives every route one success status and every 2xx a schema with schemaVersion 1 (or Markdown text)', () => {
    for (const r of ROUTES) {
      expect([r.operationId, new Set(r.responses.map((x) => x.status)).size]).toEqual([r.operationId, 1]);
      for (const res of r.responses) {
        const props = res.schema.properties as Record<string, { const?: unknown }> | undefined;
        if (res.contentType === 'text/markdown') expect(res.schema.type).toBe('string');
        else expect([r.operationId, props?.schemaVersion?.const]).toEqual([r.operationId, 1]);
      }
    }
  });

  it('closes every request body and opens every JSON success response', () => {
    for (const r of ROUTES) {
      if (r.body) expect([r.operationId, r.body.schema.additionalProperties]).toEqual([r.operationId, false]);
      for (const res of r.responses)
        expect([r.operationId, res.schema.additionalProperties]).toEqual([r.operationId, undefined]);
    }
  });

  it("adds the gateway checks, VALIDATION and INTERNAL_ERROR to a route's own errors, grouped by status", () => {
    const whoami = ROUTES.find((r) => r.operationId === 'whoami')!;
    expect(routeErrorCodes(whoami)).toEqual([
      'UNAUTHORIZED',
      'TOKENS_DISABLED',
      'TOKEN_INVALID',
      'DEVELOPER_MODE_OFF',
      'RATE_LIMITED',
      'PENDING_APPROVAL',
      'TOKEN_REQUIRED',
      'VALIDATION',
      'INTERNAL_ERROR',
    ]);
    // Every route refuses a query parameter it does not declare, so every one lists 400 VALIDATION.
    for (const r of ROUTES) expect(routeErrorsByStatus(r).get(400)).toContain('VALIDATION');
    const getAccount = ROUTES.find((r) => r.operationId === 'getAccount')!;
    expect(routeErrorCodes(getAccount)).toContain('TOKEN_SCOPE');
    expect(routeErrorCodes(getAccount)).not.toContain('SCOPE_DISABLED');
    const submit = ROUTES.find((r) => r.operationId === 'submitRecording')!;
    const byStatus = routeErrorsByStatus(submit);
    expect([...byStatus.keys()]).toEqual([...byStatus.keys()].sort((a, b) => a - b));
    expect(byStatus.get(413)).toEqual(['UPLOAD_TOO_LARGE', 'RECORDING_TOO_LONG', 'ATTACHMENT_TOO_LARGE']);
    expect(byStatus.get(503)).toEqual(['VIDEO_UNAVAILABLE', 'UPLOAD_IN_PROGRESS']);
    for (const [status, codes] of byStatus) for (const c of codes) expect(ERROR_CODES[c]).toBe(status);
  });
});

describe('schema helpers', () => {
  it('nullable adds null to the type and to an enum or const', () => {
    expect(nullable({ type: 'string', enum: ['A'] })).toEqual({ type: ['string', 'null'], enum: ['A', null] });
    expect(nullable({ type: 'integer', const: 1 })).toEqual({ type: ['integer', 'null'], enum: [1, null] });
    expect(nullable({ oneOf: [{ type: 'string' }] })).toEqual({
      anyOf: [{ oneOf: [{ type: 'string' }] }, { type: 'null' }],
    });
  });

  it('trimmedLengthPattern measures the trimmed string', () => {
    const key = new RegExp(trimmedLengthPattern(8, 64), 'u');
    expect(key.test('12345678')).toBe(true);
    expect(key.test('   12345678   ')).toBe(true);
    expect(key.test('  1234567  ')).toBe(false);
    expect(key.test('x'.repeat(64))).toBe(true);
    expect(key.test('x'.repeat(65))).toBe(false);
    const one = new RegExp(trimmedLengthPattern(1, 3), 'u');
    expect(['a', ' a ', 'abc', 'a b'].every((s) => one.test(s))).toBe(true);
    expect(['', '   ', 'abcd'].some((s) => one.test(s))).toBe(false);
  });

  it('splits a multipart schema into its binary and text parts', () => {
    const submit = ROUTES.find((r) => r.operationId === 'submitRecording')!.body!.schema;
    expect(binaryPartsOf(submit).sort()).toEqual(['attachment', 'audio']);
    const textParts = withoutBinaryParts(submit);
    expect(Object.keys(textParts.properties as object).sort()).toEqual([
      'kind',
      'naming',
      'outputLanguage',
      'recordedAt',
      'seriesId',
      'title',
      'useKeyterms',
    ]);
    expect(textParts.required).toEqual([]);
  });
});
