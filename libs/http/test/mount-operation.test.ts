import express, { type Express, type Router } from 'express';
import pino from 'pino';
import request from 'supertest';
import { ANSWERED, finishApp, jsonBody, mountOperation, validMultipartFields } from '../src';

/** An express app with one router, the JSON parser and the services' error answers. */
function appWith(mount: (router: Router) => void): Express {
  const app = express();
  app.set('query parser', 'simple');
  app.use(jsonBody('16kb'));
  const router = express.Router();
  mount(router);
  app.use(router);
  return finishApp(app, pino({ level: 'silent' }));
}

describe('mountOperation: a public route that takes no body', () => {
  it('refuses a JSON body holding a field (400 VALIDATION naming it) or not an object; none, or {}, passes', async () => {
    const app = appWith((r) =>
      mountOperation(r, 'deleteMemoryItem', async ({ params }) => ({ id: params.id, deleted: true as const })),
    );
    const none = await request(app).delete('/account/memory/mem_1');
    const empty = await request(app).delete('/account/memory/mem_1').send({});
    const field = await request(app).delete('/account/memory/mem_1').send({ x: 1 });
    const list = await request(app).delete('/account/memory/mem_1').send([1]);
    expect([none.status, empty.status]).toEqual([200, 200]);
    expect([field.status, field.body.error]).toEqual([400, { code: 'VALIDATION', message: 'body.x is not allowed' }]);
    expect([list.status, list.body.error]).toEqual([400, { code: 'VALIDATION', message: 'this route takes no body' }]);
  });
});

describe('mountOperation: a route by operationId, typed from the generated types', () => {
  it('takes the path and method from the table, gives the handler the validated input with defaults, answers the success status with schemaVersion', async () => {
    const seen: unknown[] = [];
    const app = appWith((r) =>
      mountOperation(r, 'createSeries', async ({ body }) => {
        seen.push(body);
        // Typed: the defaults the schema fills in are there, no cast needed.
        const { name, defaultKind, defaultOutputLanguage, titleStyle, dateCalendar } = body;
        return {
          series: {
            id: 's1',
            name,
            access: 'owner',
            defaultKind,
            defaultOutputLanguage,
            titleStyle,
            dateCalendar,
            meetingCount: 0,
            lastRecordedAt: null,
          },
        };
      }),
    );
    const res = await request(app).post('/series').send({ name: 'Weekly' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      schemaVersion: 1,
      series: {
        id: 's1',
        name: 'Weekly',
        access: 'owner',
        defaultKind: 'MEETING',
        defaultOutputLanguage: 'MATCH',
        titleStyle: 'SESSION',
        dateCalendar: 'AUTO',
        meetingCount: 0,
        lastRecordedAt: null,
      },
    });
    expect(seen).toEqual([
      {
        name: 'Weekly',
        defaultKind: 'MEETING',
        defaultOutputLanguage: 'MATCH',
        titleStyle: 'SESSION',
        dateCalendar: 'AUTO',
      },
    ]);
  });

  it('refuses what the schema refuses before the handler runs, naming the field', async () => {
    let ran = false;
    const app = appWith((r) =>
      mountOperation(r, 'listEvents', async ({ query }) => {
        ran = true;
        return { events: [], nextCursor: String(query.limit) };
      }),
    );
    const bad = await request(app).get('/events?limit=0');
    expect([bad.status, bad.body.error.code, ran]).toEqual([400, 'VALIDATION', false]);
    const unknown = await request(app).get('/events?nope=1');
    expect([unknown.status, unknown.body.error.message]).toEqual([400, 'query parameter nope is not allowed']);
    const ok = await request(app).get('/events');
    expect([ok.status, ok.body.nextCursor]).toEqual([200, '100']);
  });

  it('runs the guards before validation, and leaves the answer to a handler that wrote it', async () => {
    const app = appWith((r) => {
      mountOperation(r, 'getSeries', async () => ANSWERED, {
        guards: [(_req, res) => void res.status(404).json({ error: { code: 'NOT_FOUND', message: 'off' } })],
      });
      mountOperation(r, 'quoteSeriesAsk', async ({ params }, { res }) => {
        res.status(299).type('text/plain').send(params.id);
        return ANSWERED;
      });
    });
    expect((await request(app).get('/series/x')).status).toBe(404);
    const own = await request(app).get('/series/abc/ask/quote');
    expect([own.status, own.text]).toEqual([299, 'abc']);
  });

  it('mounts the admin table too: no schemaVersion where its answers have none, body errors named without a body. prefix', async () => {
    const app = appWith((r) =>
      mountOperation(r, 'adminRevokeToken', async ({ params }) => ({ id: params.id, revoked: true as const })),
    );
    const res = await request(app).delete('/tokens/tok_1');
    expect([res.status, res.body]).toEqual([200, { id: 'tok_1', revoked: true }]);
    const flags = appWith((r) =>
      mountOperation(r, 'adminSetFlags', async ({ body }) => ({ flags: { tokensDisabled: body.tokensDisabled } })),
    );
    const bad = await request(flags).put('/flags').send({ tokensDisabled: 'yes' });
    expect([bad.status, bad.body.error.message]).toEqual([400, 'tokensDisabled must be boolean']);
    const absent = await request(flags).put('/flags').send({});
    expect(absent.body.error.message).toBe('tokensDisabled is required');
  });

  it("checks a multipart body's text parts against the body schema without its binary parts", () => {
    expect(validMultipartFields('submitRecording', { naming: 'skip', kind: 'LECTURE' })).toEqual({
      naming: 'skip',
      kind: 'LECTURE',
    });
    expect(() => validMultipartFields('submitRecording', { naming: 'later' })).toThrow(
      /naming must be one of default, skip/,
    );
    expect(() => validMultipartFields('submitRecording', { colour: 'red' })).toThrow(/colour is not allowed/);
  });

  it('answers a GET with the headers and bytes express sends, and leaves HEAD, conditional requests and ETags to express', async () => {
    const terms = { keyterms: ['Kubernetes', 'Zoë'] };
    const mounted = appWith((r) => mountOperation(r, 'getAccountKeyterms', async () => terms));
    mounted.set('etag', false);
    const reference = express();
    reference.set('etag', false);
    reference.get('/account/keyterms', (_req, res) => {
      res.status(200).json({ schemaVersion: 1, ...terms });
    });
    const headersOf = (res: request.Response) => {
      const { date: _d, ...rest } = res.headers;
      return rest;
    };
    const ours = await request(mounted).get('/account/keyterms');
    const theirs = await request(reference).get('/account/keyterms');
    expect(ours.status).toBe(200);
    expect(ours.text).toBe(theirs.text);
    expect(headersOf(ours)).toEqual(headersOf(theirs));
    expect(ours.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(ours.headers['content-length']).toBe(
      String(Buffer.byteLength(JSON.stringify({ schemaVersion: 1, ...terms }))),
    );
    // HEAD: the same headers, no body.
    const head = await request(mounted).head('/account/keyterms');
    expect(head.status).toBe(200);
    expect(headersOf(head)).toEqual(headersOf(theirs));
    expect(head.text).toBeUndefined();
    // A conditional request is express's: If-None-Match: * is fresh, 304 without a body.
    const conditional = await request(mounted).get('/account/keyterms').set('If-None-Match', '*');
    expect(conditional.status).toBe(304);
    expect((await request(reference).get('/account/keyterms').set('If-None-Match', '*')).status).toBe(304);
    // An app with ETags on still gets them.
    const tagged = appWith((r) => mountOperation(r, 'getAccountKeyterms', async () => terms));
    const withTag = await request(tagged).get('/account/keyterms');
    expect(withTag.headers.etag).toEqual(expect.any(String));
    expect(withTag.body).toEqual({ schemaVersion: 1, ...terms });
  });
});
