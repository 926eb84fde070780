import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import {
  ROUTES,
  errorEnvelopeSchema,
  notReadyErrorSchema,
  withoutBinaryParts,
  type JsonSchema,
  type RouteDef,
} from '@mm/contract';
import * as sample from './schema-samples';

/** As strict as ajv gets, with the contract's vendor keywords known. */
function strictAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true, useDefaults: true });
  addFormats(ajv);
  ajv.addVocabulary(['x-svc-description-fa', 'x-svc-summary-fa']);
  return ajv;
}

const ajv = strictAjv();
const route = (operationId: string): RouteDef => ROUTES.find((r) => r.operationId === operationId)!;
const successOf = (operationId: string, contentType = 'application/json'): JsonSchema =>
  route(operationId).responses.find((r) => (r.contentType ?? 'application/json') === contentType)!.schema;

function valid(schema: JsonSchema, data: unknown): boolean {
  return ajv.validate(schema, data) as boolean;
}
function errorsOf(schema: JsonSchema, data: unknown): string {
  ajv.validate(schema, data);
  return ajv.errorsText(ajv.errors);
}
const body = (operationId: string): JsonSchema => route(operationId).body!.schema;

describe('every schema of the route table', () => {
  it.each(ROUTES.map((r) => [r.operationId, r]))(
    '%s: parameters, body and responses compile under ajv strict mode',
    (_id, r) => {
      const byIn = (where: string) => r.params.filter((p) => p.in === where);
      for (const where of ['path', 'query', 'header']) {
        const ps = byIn(where);
        ajv.compile({
          type: 'object',
          properties: Object.fromEntries(ps.map((p) => [p.name, p.schema])),
          required: ps.filter((p) => p.required).map((p) => p.name),
        });
      }
      if (r.body)
        ajv.compile(r.body.contentType === 'multipart/form-data' ? withoutBinaryParts(r.body.schema) : r.body.schema);
      for (const res of r.responses) ajv.compile(res.schema);
    },
  );

  it('compiles both error schemas', () => {
    ajv.compile(errorEnvelopeSchema);
    ajv.compile(notReadyErrorSchema);
  });
});

describe('success responses', () => {
  const cases: [string, unknown][] = [
    ['whoami', sample.tokenInfo],
    [
      'whoami',
      {
        ...sample.tokenInfo,
        wallet: null,
        token: { ...sample.tokenInfo.token, dailyMinuteCap: 50, expiresAt: '2025-01-01T00:00:00Z' },
      },
    ],
    ['listReadyRecordings', sample.listPage],
    ['searchRecordings', sample.searchPage],
    ['submitRecording', sample.submitResult],
    ['getRecordingStatus', sample.statusNaming],
    ['retryRecording', sample.statusFailed],
    ['skipRecordingNaming', sample.statusNaming],
    ['getRecordingBundle', sample.bundle],
    ['listEvents', sample.eventPage],
    ['getSeries', sample.series],
    ['createSeries', sample.series],
    ['updateSeries', sample.series],
    ['listReadableSeries', sample.seriesList],
    ['getSeriesKeyterms', sample.seriesKeyterms],
    ['replaceSeriesKeyterms', sample.seriesKeyterms],
    ['getAccount', sample.account],
    ['updateAccountSettings', sample.account],
    ['getAccountKeyterms', sample.accountKeyterms],
    ['replaceAccountKeyterms', { schemaVersion: 1, keyterms: ['NATS'] }],
    ['listMemory', sample.memoryList],
    ['listMemory', { schemaVersion: 1, memoryEnabled: false, items: [] }],
    ['updateMemoryItem', sample.memoryItemResponse],
    ['deleteMemoryItem', sample.memoryDelete],
    ['askRecording', sample.recordingAnswer],
    ['askSeries', sample.seriesAnswer],
    ['quoteRecordingAsk', sample.recordingQuote],
    ['quoteSeriesAsk', sample.seriesQuote],
  ];

  it.each(cases)('%s accepts a response shaped as the contract says', (operationId, data) => {
    expect(errorsOf(successOf(operationId), data)).toBe('No errors');
  });

  it.each(cases)('%s accepts unknown extra fields (clients ignore them)', (operationId, data) => {
    expect(valid(successOf(operationId), { ...(data as object), addedLater: { x: 1 } })).toBe(true);
  });

  it.each(cases)('%s refuses a response without schemaVersion 1', (operationId, data) => {
    expect(valid(successOf(operationId), { ...(data as object), schemaVersion: 2 })).toBe(false);
    const { schemaVersion: _omit, ...rest } = data as Record<string, unknown>;
    expect(valid(successOf(operationId), rest)).toBe(false);
  });

  it('checks the fields of each known digest section kind and lets unknown kinds through', () => {
    const schema = successOf('getRecordingBundle');
    const withSection = (s: unknown) => ({
      ...sample.bundle,
      digest: { ...sample.bundle.digest, content: [s], sections: [s] },
    });
    expect(valid(schema, withSection({ kind: 'summary', title: 'Summary' }))).toBe(false);
    expect(valid(schema, withSection({ kind: 'action_item_list', title: 'Actions', items: ['not an object'] }))).toBe(
      false,
    );
    expect(valid(schema, withSection({ kind: 'decision_list', title: 'Decisions', items: [{ text: 'x' }] }))).toBe(
      false,
    );
    expect(valid(schema, withSection({ kind: 'brand_new', title: 'Later', anything: true }))).toBe(true);
  });

  it('refuses statuses, kinds and citations outside the contract', () => {
    expect(valid(successOf('getRecordingStatus'), { ...sample.statusNaming, status: 'DONE' })).toBe(false);
    expect(
      valid(successOf('getRecordingStatus'), { ...sample.statusFailed, error: { code: 'OOPS', retryable: true } }),
    ).toBe(false);
    expect(
      valid(successOf('listReadyRecordings'), { ...sample.listPage, items: [{ ...sample.listItem, kind: 'PODCAST' }] }),
    ).toBe(false);
    const four = Array.from({ length: 4 }, (_, i) => ({ startMs: i, speaker: null }));
    expect(valid(successOf('askRecording'), { ...sample.recordingAnswer, citations: four })).toBe(false);
    expect(valid(successOf('askSeries'), { ...sample.seriesAnswer, citations: [{ startMs: 1, speaker: null }] })).toBe(
      false,
    );
    expect(
      valid(successOf('searchRecordings'), {
        ...sample.searchPage,
        items: [{ ...sample.listItem, snippet: 'x'.repeat(201) }],
      }),
    ).toBe(false);
  });

  it('requires data.error on recording.failed and data.change on recording.updated', () => {
    const schema = successOf('listEvents');
    const page = (e: unknown) => ({ schemaVersion: 1, events: [e], nextCursor: 'c' });
    expect(
      valid(
        schema,
        page({
          id: 'e',
          type: 'recording.failed',
          recordingId: 'r',
          seriesId: null,
          occurredAt: '2024-05-01T10:00:00Z',
          data: { status: 'FAILED' },
        }),
      ),
    ).toBe(false);
    expect(
      valid(
        schema,
        page({
          id: 'e',
          type: 'recording.updated',
          recordingId: 'r',
          seriesId: null,
          occurredAt: '2024-05-01T10:00:00Z',
          data: { status: 'READY' },
        }),
      ),
    ).toBe(false);
    expect(valid(schema, { schemaVersion: 1, events: [], nextCursor: null })).toBe(false);
  });

  it('describes the bundle markdown as text', () => {
    expect(valid(successOf('getRecordingBundle', 'text/markdown'), '# Kickoff\n')).toBe(true);
  });
});

describe('error bodies', () => {
  it('accepts the envelope with code and message, and details only where the contract puts them', () => {
    expect(valid(errorEnvelopeSchema, { error: { code: 'NOT_FOUND', message: 'Not found' } })).toBe(true);
    expect(
      valid(errorEnvelopeSchema, {
        error: { code: 'INSUFFICIENT_MINUTES', message: 'Short', details: { requiredMinutes: 5 } },
      }),
    ).toBe(true);
    expect(valid(errorEnvelopeSchema, { error: { code: 'INSUFFICIENT_MINUTES', message: 'Short' } })).toBe(false);
    expect(
      valid(errorEnvelopeSchema, {
        error: {
          code: 'TOKEN_DAILY_CAP',
          message: 'Cap',
          details: { capMinutes: 10, usedMinutes: 9, requiredMinutes: 2 },
        },
      }),
    ).toBe(true);
    expect(
      valid(errorEnvelopeSchema, { error: { code: 'TOKEN_DAILY_CAP', message: 'Cap', details: { capMinutes: 10 } } }),
    ).toBe(false);
    expect(
      valid(errorEnvelopeSchema, {
        error: { code: 'PRICE_ABOVE_MAX', message: 'Too dear', details: { minutes: 4, maxMinutes: 2 } },
      }),
    ).toBe(true);
  });

  it('carries the code alone on INTERNAL_ERROR and a message on every other code', () => {
    expect(valid(errorEnvelopeSchema, { error: { code: 'INTERNAL_ERROR' } })).toBe(true);
    expect(valid(errorEnvelopeSchema, { error: { code: 'INTERNAL_ERROR', message: 'stack…' } })).toBe(false);
    expect(valid(errorEnvelopeSchema, { error: { code: 'VALIDATION' } })).toBe(false);
  });

  it('refuses unknown codes and a schemaVersion on errors', () => {
    expect(valid(errorEnvelopeSchema, { error: { code: 'TEAPOT', message: 'x' } })).toBe(false);
    expect(valid(errorEnvelopeSchema, { schemaVersion: 1, error: { code: 'NOT_FOUND', message: 'x' } })).toBe(false);
  });

  it("keeps the bundle's NOT_READY in its older shape, details beside error", () => {
    expect(
      valid(notReadyErrorSchema, {
        error: { code: 'NOT_READY', message: 'Not ready' },
        details: { status: 'TRANSCRIBING' },
      }),
    ).toBe(true);
    expect(
      valid(notReadyErrorSchema, {
        error: { code: 'NOT_READY', message: 'Not ready', details: { status: 'TRANSCRIBING' } },
      }),
    ).toBe(false);
    expect(
      valid(notReadyErrorSchema, { error: { code: 'NOT_READY', message: 'x' }, details: { status: 'READY' } }),
    ).toBe(false);
  });
});

describe('request bodies', () => {
  it('createSeries: name required, unlisted fields refused, defaults filled in', () => {
    const data: Record<string, unknown> = { name: 'Weekly sync' };
    expect(valid(body('createSeries'), data)).toBe(true);
    expect(data).toEqual({
      name: 'Weekly sync',
      defaultKind: 'MEETING',
      defaultOutputLanguage: 'MATCH',
      titleStyle: 'SESSION',
      dateCalendar: 'AUTO',
    });
    expect(valid(body('createSeries'), {})).toBe(false);
    expect(valid(body('createSeries'), { name: 'x', color: 'red' })).toBe(false);
    expect(valid(body('createSeries'), { name: 'x', dateCalendar: 'HIJRI' })).toBe(false);
    expect(valid(body('createSeries'), { name: 'Weekly\tsync\n' })).toBe(true);
    expect(valid(body('createSeries'), { name: 'bad\u0007bell' })).toBe(false);
    expect(valid(body('createSeries'), { name: '  \n ' })).toBe(false);
  });

  it('updateSeries: at least one field, no defaults added, unlisted fields refused', () => {
    const data = { titleStyle: 'TOPIC' };
    expect(valid(body('updateSeries'), data)).toBe(true);
    expect(data).toEqual({ titleStyle: 'TOPIC' });
    expect(valid(body('updateSeries'), {})).toBe(false);
    expect(valid(body('updateSeries'), { access: 'owner' })).toBe(false);
  });

  it('updateAccountSettings: one of the three settings, never uiLocale', () => {
    expect(valid(body('updateAccountSettings'), { speakerNamingMode: 'FORCE_ON' })).toBe(true);
    expect(valid(body('updateAccountSettings'), {})).toBe(false);
    expect(valid(body('updateAccountSettings'), { uiLocale: 'fa' })).toBe(false);
    expect(valid(body('updateAccountSettings'), { memoryLearningEnabled: 'yes' })).toBe(false);
  });

  it('keyterms: at most 100 distinct terms without forbidden characters', () => {
    expect(valid(body('replaceAccountKeyterms'), { keyterms: ['NATS', 'کوبرنتیز', 'two words'] })).toBe(true);
    expect(valid(body('replaceAccountKeyterms'), { keyterms: [] })).toBe(true);
    expect(valid(body('replaceAccountKeyterms'), { keyterms: ['a<b'] })).toBe(false);
    expect(valid(body('replaceAccountKeyterms'), { keyterms: ['x', 'x'] })).toBe(false);
    expect(valid(body('replaceAccountKeyterms'), { keyterms: Array.from({ length: 101 }, (_, i) => `t${i}`) })).toBe(
      false,
    );
    expect(valid(body('replaceAccountKeyterms'), {})).toBe(false);
    expect(valid(body('replaceSeriesKeyterms'), { keyterms: ['x'] })).toBe(false);
    expect(valid(body('replaceSeriesKeyterms'), { keyterms: ['x'], inheritAccountKeyterms: false })).toBe(true);
  });

  it('ask: question of 1 to 500 characters after trimming, optional ceiling and key', () => {
    expect(valid(body('askRecording'), { question: 'What was decided?' })).toBe(true);
    expect(
      valid(body('askSeries'), { question: `  ${'q'.repeat(500)}  `, maxMinutes: 3, idempotencyKey: 'key-12345' }),
    ).toBe(true);
    expect(valid(body('askRecording'), { question: 'q'.repeat(501) })).toBe(false);
    expect(valid(body('askRecording'), { question: '   ' })).toBe(false);
    expect(valid(body('askRecording'), { question: 'ok', maxMinutes: 0 })).toBe(false);
    expect(valid(body('askRecording'), { question: 'ok', idempotencyKey: ' 1234567 ' })).toBe(false);
    expect(valid(body('askRecording'), { question: 'ok', context: 'x' })).toBe(false);
  });

  it('memory text: 1 to 1000 characters after trimming', () => {
    expect(valid(body('updateMemoryItem'), { text: 'Sara leads design.' })).toBe(true);
    expect(valid(body('updateMemoryItem'), { text: ' ' })).toBe(false);
    expect(valid(body('updateMemoryItem'), { text: 'x'.repeat(1001) })).toBe(false);
  });

  it("bounds the raw length of trimmed fields at twice the contract's limit, and the integers JSON carries exactly", () => {
    // Room for as much whitespace as text: what the contract allows always fits.
    const padded = (limit: number, extra: number) => `${' '.repeat(extra)}${'x'.repeat(limit)}`;
    expect(valid(body('askRecording'), { question: padded(500, 500) })).toBe(true);
    expect(valid(body('askRecording'), { question: padded(500, 501) })).toBe(false);
    expect(valid(body('updateMemoryItem'), { text: padded(1000, 1000) })).toBe(true);
    expect(valid(body('updateMemoryItem'), { text: padded(1000, 1001) })).toBe(false);
    expect(valid(body('createSeries'), { name: padded(60, 60) })).toBe(true);
    expect(valid(body('createSeries'), { name: padded(60, 61) })).toBe(false);
    expect(valid(body('replaceAccountKeyterms'), { keyterms: [padded(49, 49)] })).toBe(true);
    expect(valid(body('replaceAccountKeyterms'), { keyterms: [padded(49, 50)] })).toBe(false);
    expect(valid(body('askRecording'), { question: 'ok', idempotencyKey: padded(64, 64) })).toBe(true);
    expect(valid(body('askRecording'), { question: 'ok', idempotencyKey: padded(64, 65) })).toBe(false);
    expect(valid(body('askRecording'), { question: 'ok', maxMinutes: Number.MAX_SAFE_INTEGER })).toBe(true);
    expect(valid(body('askRecording'), { question: 'ok', maxMinutes: 2 ** 60 })).toBe(false);
    const textParts = withoutBinaryParts(body('submitRecording'));
    expect(valid(textParts, { recordedAt: `2024-05-01T12:30:00.${'1'.repeat(38)}+03:30` })).toBe(true);
    expect(valid(textParts, { recordedAt: `2024-05-01T12:30:00.${'1'.repeat(39)}+03:30` })).toBe(false);
  });

  it('skip naming: only { action: "skip" }', () => {
    expect(valid(body('skipRecordingNaming'), { action: 'skip' })).toBe(true);
    expect(valid(body('skipRecordingNaming'), { action: 'name' })).toBe(false);
    expect(valid(body('skipRecordingNaming'), {})).toBe(false);
  });

  it('submitRecording text parts: enums, dates and title length', () => {
    const textParts = withoutBinaryParts(body('submitRecording'));
    expect(valid(textParts, {})).toBe(true);
    const all = {
      recordedAt: '2024-05-01T12:30:00+03:30',
      naming: 'skip',
      useKeyterms: 'true',
      title: 'Kickoff',
      seriesId: 's1',
      kind: 'LECTURE',
      outputLanguage: 'FA',
    };
    expect(errorsOf(textParts, all)).toBe('No errors');
    expect(valid(textParts, { useKeyterms: 'yes' })).toBe(false);
    expect(valid(textParts, { naming: 'ask' })).toBe(false);
    expect(valid(textParts, { recordedAt: 'yesterday' })).toBe(false);
    expect(valid(textParts, { title: 'x'.repeat(201) })).toBe(false);
    expect(valid(textParts, { outputLanguage: 'DE' })).toBe(false);
    expect(valid(textParts, { unknownPart: '1' })).toBe(false);
    expect(body('submitRecording').required).toEqual(['audio']);
  });
});
