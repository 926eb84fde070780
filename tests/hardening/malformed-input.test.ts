import { readFileSync } from 'node:fs';
import { SCOPES } from '@mm/contract';
import { toneWav } from '../support/media';
import { rawRequest, type RawResponse } from '../support/raw-http';
import { ADMIN_KEY, startStack, type Stack, type TestToken } from '../support/stack';

let stack: Stack;
let token: TestToken;
beforeAll(async () => {
  stack = await startStack();
  const account = await stack.admin.account({ balanceMinutes: 100 });
  token = await stack.admin.token(account.id, [...SCOPES]);
}, 60_000);
afterAll(() => stack.stop());

const head = (line: string, headers: string[] = []) =>
  [line, 'Host: x', `Authorization: Bearer ${token.value}`, ...headers].join('\n');

function expectEnvelope(res: RawResponse, status = 400, code = 'VALIDATION'): void {
  expect({ status: res.status, body: res.json }).toEqual({
    status,
    body: { error: expect.objectContaining({ code }) },
  });
  expect(res.headers['content-type']).toMatch(/^application\/json/);
}

describe('bad percent-encoding', () => {
  it.each([
    ['whoami', 'GET /api/v1/whoami?%zz HTTP/1.1'],
    ['whoami value', 'GET /api/v1/whoami?a=%E0%A4%A HTTP/1.1'],
    ['a list query value', 'GET /api/v1/recordings/ready?limit=%zz HTTP/1.1'],
    ['a list query name', 'GET /api/v1/recordings/ready?%zz=1 HTTP/1.1'],
    ['a path parameter', 'GET /api/v1/recordings/%zz/status HTTP/1.1'],
    ['a series path parameter', 'GET /api/v1/series/%E0%A4%A/keyterms HTTP/1.1'],
    ['events', 'GET /api/v1/events?cursor=%zz HTTP/1.1'],
    ['search', 'GET /api/v1/recordings/search?q=%zz HTTP/1.1'],
    ['account', 'GET /api/v1/account?%zz HTTP/1.1'],
  ])('answers 400 VALIDATION in the envelope: %s', async (_name, line) => {
    expectEnvelope(await rawRequest(stack.url, head(line)));
  });
});

describe('the NUL character', () => {
  it.each([
    ['path', 'GET /api/v1/recordings/rec_%00/status HTTP/1.1'],
    ['query', 'GET /api/v1/recordings/search?q=a%00b HTTP/1.1'],
  ])('is refused naming where it was: the %s', async (where, line) => {
    const res = await rawRequest(stack.url, head(line));
    expectEnvelope(res);
    expect((res.json as { error: { message: string } }).error.message).toBe(
      `the ${where} must not contain the NUL character (U+0000)`,
    );
  });
});

describe('repeated parameters', () => {
  it.each([
    ['limit', 'GET /api/v1/recordings/ready?limit=1&limit=2 HTTP/1.1'],
    ['search q', 'GET /api/v1/recordings/search?q=a&q=b HTTP/1.1'],
    ['events cursor', 'GET /api/v1/events?limit=1&limit=1 HTTP/1.1'],
    ['quote question', 'GET /api/v1/recordings/r1/ask/quote?question=a&question=b HTTP/1.1'],
  ])('answers 400 VALIDATION: %s', async (_name, line) => {
    expectEnvelope(await rawRequest(stack.url, head(line)));
  });
});

function json(method: string, path: string, body: string | Buffer, extra: string[] = [], declared?: number) {
  const b = typeof body === 'string' ? Buffer.from(body) : body;
  const length = declared ?? b.length;
  return rawRequest(
    stack.url,
    head(`${method} ${path} HTTP/1.1`, [`Content-Length: ${length}`, ...extra]),
    b,
    length > b.length,
  );
}

describe('JSON bodies', () => {
  const settings = '{"summaryEmailEnabled":true}';
  it.each([
    ['charset=latin1', ['Content-Type: application/json; charset=latin1']],
    ['charset=utf-16', ['Content-Type: application/json; charset=utf-16']],
    ['an unknown Content-Encoding', ['Content-Type: application/json', 'Content-Encoding: br-zz']],
    ['a gzip Content-Encoding that is not gzip', ['Content-Type: application/json', 'Content-Encoding: gzip']],
    ['a Content-Type other than JSON', ['Content-Type: text/plain']],
    ['no Content-Type', []],
  ])('answers 4xx in the envelope and changes nothing: %s', async (_name, headers) => {
    const res = await json('PATCH', '/api/v1/account/settings', settings, headers);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.json).toEqual({ error: expect.objectContaining({ code: expect.any(String) }) });
    const account = await stack.api.get('/api/v1/account').set('Authorization', `Bearer ${token.value}`);
    expect(account.body.settings.summaryEmailEnabled).toBe(false);
  });

  it('answers 400 VALIDATION to deeply nested JSON', async () => {
    const deep = '{"name":' + '['.repeat(100_000) + ']'.repeat(100_000) + '}';
    expectEnvelope(await json('POST', '/api/v1/series', deep, ['Content-Type: application/json']));
  });

  it('answers 400 VALIDATION to bytes that are not UTF-8 (public and admin routes), and writes nothing', async () => {
    const latin1 = (text: string) => Buffer.from(text, 'latin1');
    for (const [method, path, body] of [
      ['PUT', '/api/v1/account/keyterms', latin1('{"keyterms":["caf\xe9"]}')],
      ['POST', '/api/v1/series', latin1('{"name":"caf\xe9 crit"}')],
    ] as const) {
      const res = await json(method, path, body, ['Content-Type: application/json']);
      expectEnvelope(res);
      expect((res.json as { error: { message: string } }).error.message).toMatch(/UTF-8/);
    }
    const named = latin1('{"displayName":"\xe9\xe9"}');
    const admin = await rawRequest(
      stack.url,
      [
        'POST /admin/v1/accounts HTTP/1.1',
        'Host: x',
        `Authorization: Bearer ${ADMIN_KEY}`,
        'Content-Type: application/json',
        `Content-Length: ${named.length}`,
      ].join('\n'),
      named,
    );
    expectEnvelope(admin);
    const keyterms = await stack.api.get('/api/v1/account/keyterms').set('Authorization', `Bearer ${token.value}`);
    expect(keyterms.body.keyterms).toEqual([]);
    const series = await stack.api.get('/api/v1/series/readable').set('Authorization', `Bearer ${token.value}`);
    expect(series.body.items.map((i: { name: string }) => i.name).filter((n: string) => n.includes('crit'))).toEqual(
      [],
    );
  });

  it('answers 400 VALIDATION to a lone surrogate escaped in JSON (it would be stored as U+FFFD), naming the field, and writes nothing', async () => {
    for (const [method, path, raw, field] of [
      ['POST', '/api/v1/series', '{"name":"half \\ud800 crit"}', 'name'],
      ['PUT', '/api/v1/account/keyterms', '{"keyterms":["ok","x\\udc00"]}', 'keyterms[1]'],
    ] as const) {
      const res = await json(method, path, Buffer.from(raw), ['Content-Type: application/json']);
      expectEnvelope(res);
      expect((res.json as { error: { message: string } }).error.message).toMatch(
        new RegExp(`^${field.replace(/[[\]]/g, '\\$&')}: `),
      );
    }
    const series = await stack.api.get('/api/v1/series/readable').set('Authorization', `Bearer ${token.value}`);
    expect(series.body.items.filter((i: { name: string }) => i.name.includes('half'))).toEqual([]);
    // A whole pair, escaped, is a character like any other.
    const pair = await json('POST', '/api/v1/series', Buffer.from('{"name":"pair \\ud83d\\ude00"}'), [
      'Content-Type: application/json',
    ]);
    expect([pair.status, (pair.json as { series: { name: string } }).series.name]).toEqual([201, 'pair \u{1F600}']);
  });

  it('says in plain words that a gzip body does not decompress', async () => {
    const res = await json('PATCH', '/api/v1/account/settings', '{"summaryEmailEnabled":true}', [
      'Content-Type: application/json',
      'Content-Encoding: gzip',
    ]);
    expectEnvelope(res);
    expect((res.json as { error: { message: string } }).error.message).toBe(
      'The body does not decompress as its Content-Encoding says.',
    );
  });

  it('names a field refused inside an object by its path (admin API too)', async () => {
    const admin = { Authorization: `Bearer ${ADMIN_KEY}` };
    const account = await stack.admin.account();
    const switches = await stack.api
      .patch(`/admin/v1/accounts/${account.id}`)
      .set(admin)
      .send({ switches: { FOO: true } });
    expect([switches.status, switches.body.error]).toEqual([
      400,
      { code: 'VALIDATION', message: 'switches.FOO is not allowed' },
    ]);
    const flags = await stack.api.put('/admin/v1/flags').set(admin).send({});
    expect([flags.status, flags.body.error]).toEqual([
      400,
      { code: 'VALIDATION', message: 'tokensDisabled is required' },
    ]);
  });

  it('says a body that is JSON but not an object must be an object', async () => {
    for (const body of ['null', '"x"', '3']) {
      const res = await json('POST', '/api/v1/series', body, ['Content-Type: application/json']);
      expectEnvelope(res);
      expect((res.json as { error: { message: string } }).error.message).toBe('Body must be a JSON object.');
    }
  });

  it('answers 400 VALIDATION to a body that is not JSON', async () => {
    expectEnvelope(await json('POST', '/api/v1/series', '{"name":', ['Content-Type: application/json']));
  });
});

describe('multipart uploads', () => {
  const boundary = 'XyZ';
  const upload = (body: string, declared?: number) =>
    json(
      'POST',
      '/api/v1/recordings',
      body,
      [`Content-Type: multipart/form-data; boundary=${boundary}`, 'Idempotency-Key: malformed-multipart-1'],
      declared,
    );

  it('answers 400 VALIDATION to a malformed part header', async () => {
    const body = `--${boundary}\r\nContent-Disposition form-data name="audio"\r\n\r\nabc\r\n--${boundary}--\r\n`;
    expectEnvelope(await upload(body));
  });

  it('answers 400 VALIDATION to a part without a name', async () => {
    const body = `--${boundary}\r\nContent-Disposition: form-data; filename="a.wav"\r\n\r\nabc\r\n--${boundary}--\r\n`;
    expectEnvelope(await upload(body));
  });

  it('answers 400 VALIDATION to a body whose closing boundary never comes', async () => {
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\n\r\nabcdef`;
    expectEnvelope(await upload(body));
  });

  it('answers 400 VALIDATION to a body shorter than its Content-Length', async () => {
    const body = `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\n\r\nabcdef`;
    expectEnvelope(await upload(body, body.length + 1000));
  });

  it('answers 400 VALIDATION to a missing boundary', async () => {
    expectEnvelope(
      await json('POST', '/api/v1/recordings', 'abc', [
        'Content-Type: multipart/form-data',
        'Idempotency-Key: malformed-multipart-2',
      ]),
    );
  });

  it('writes no meeting for any refused upload', async () => {
    const list = await stack.api.get('/api/v1/events').set('Authorization', `Bearer ${token.value}`);
    expect(list.body.events).toEqual([]);
  });
});

describe('oversized headers', () => {
  it('answers 400 VALIDATION in the envelope to a header block over the limit', async () => {
    const res = await rawRequest(stack.url, head('GET /api/v1/whoami HTTP/1.1', [`X-Big: ${'a'.repeat(64 * 1024)}`]));
    expect(res.status).toBe(400);
    expect(res.json).toEqual({ error: expect.objectContaining({ code: 'VALIDATION' }) });
  });
});

describe('values of the right shape that name no instant (outside review, session 37)', () => {
  const get = (path: string) => stack.api.get(path).set('Authorization', `Bearer ${token.value}`);

  it('reads a list cursor past the year 9999 as the latest position, not a 500', async () => {
    // Fifteen digits are the contract's cursor format; they reach the year 33658.
    for (const cursor of ['999999999999999.zzz', '253402300800000.zzz']) {
      const res = await get(`/api/v1/recordings/ready?cursor=${cursor}`);
      expect([cursor, res.status, res.body.items]).toEqual([cursor, 200, []]);
      const found = await get(`/api/v1/recordings/search?q=hello&cursor=${cursor}`);
      expect([cursor, found.status]).toEqual([cursor, 200]);
    }
  });

  it('answers 400 VALIDATION to a search window at a leap second (23:59:60), not a 500', async () => {
    for (const window of ['from=2016-12-31T23:59:60Z', 'to=2015-06-30T23:59:60Z', 'from=2024-01-01T10:00:00%2B03']) {
      const res = await get(`/api/v1/recordings/search?q=hello&${window}`);
      expect([window, res.status, res.body.error?.code]).toEqual([window, 400, 'VALIDATION']);
      expect(res.body.error.message).toMatch(/^(from|to) must be ISO 8601 with an offset/);
    }
    // Forms a Date reads stay accepted: an offset without its colon, a fraction of ten digits.
    for (const window of ['from=2024-01-01T10:00:00%2B0330', 'to=2024-01-01T10:00:00.1234567890Z']) {
      const res = await get(`/api/v1/recordings/search?q=hello&${window}`);
      expect([window, res.status]).toEqual([window, 200]);
    }
  });
});

describe('an Idempotency-Key header sent twice (outside review, session 37)', () => {
  // node would join the two into "k1, k2": a key the client never chose, which its retries would not replay.
  const keys = ['Idempotency-Key: twice-key-one', 'Idempotency-Key: twice-key-two'];

  it('refuses a submit 400 VALIDATION, writing no meeting', async () => {
    const boundary = 'twicekeyboundary';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\n`,
      ),
      readFileSync(toneWav(1)),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await json('POST', '/api/v1/recordings', body, [
      `Content-Type: multipart/form-data; boundary=${boundary}`,
      ...keys,
    ]);
    expectEnvelope(res);
    expect((res.json as { error: { message: string } }).error.message).toBe(
      'Idempotency-Key sent more than once; send one key.',
    );
    const listed = await stack.api.get('/api/v1/recordings/ready').set('Authorization', `Bearer ${token.value}`);
    const status = await stack.api.get('/api/v1/events?limit=500').set('Authorization', `Bearer ${token.value}`);
    expect(listed.body.items).toEqual([]);
    expect(status.body.events.filter((e: { type: string }) => e.type === 'recording.created')).toEqual([]);
  });

  it('refuses an Ask at the gateway, before the meeting is looked up; one key still goes on', async () => {
    const ask = (headers: string[]) =>
      json('POST', '/api/v1/recordings/rec_missing/ask', '{"question":"what was agreed?"}', [
        'Content-Type: application/json',
        ...headers,
      ]);
    expectEnvelope(await ask(keys));
    expectEnvelope(await ask(keys.slice(0, 1)), 404, 'NOT_FOUND');
  });
});

describe('the Authorization header sent twice (session 39)', () => {
  // node keeps the first and drops the second: a proxy in front could have acted on the other one.
  it.each([
    ['the same token twice', () => [`Authorization: Bearer ${token.value}`]],
    ['a second, different token', () => ['Authorization: Bearer svc_another_token_nobody_has']],
  ])('answers 401 UNAUTHORIZED and reads no token: %s', async (_name, second) => {
    const res = await rawRequest(stack.url, head('GET /api/v1/whoami HTTP/1.1', second()));
    expectEnvelope(res, 401, 'UNAUTHORIZED');
    expect((res.json as { error: { message: string } }).error.message).toBe(
      'Authorization sent more than once; send one.',
    );
    expect(res.headers.ratelimit).toBeUndefined();
  });

  it('still answers a request that sends it once', async () => {
    expect((await rawRequest(stack.url, head('GET /api/v1/whoami HTTP/1.1'))).status).toBe(200);
  });
});

describe("the admin API's bodies and paths (outside review, session 39)", () => {
  const admin = () => ({ Authorization: `Bearer ${ADMIN_KEY}` });

  it('refuses a JSON array where an object body may be left out', async () => {
    const created = await stack.api
      .post('/admin/v1/accounts')
      .set(admin())
      .set('Content-Type', 'application/json')
      .send('[{"displayName":"array"}]');
    expect([created.status, created.body.error]).toEqual([
      400,
      { code: 'VALIDATION', message: 'body must be a JSON object' },
    ]);
    const account = await stack.admin.account();
    const patched = await stack.api
      .patch(`/admin/v1/accounts/${account.id}`)
      .set(admin())
      .set('Content-Type', 'application/json')
      .send('[1]');
    expect(patched.status).toBe(400);
  });

  it('bounds a new account’s balance by what one ledger entry holds, instead of a 500', async () => {
    const res = await stack.api
      .post('/admin/v1/accounts')
      .set(admin())
      .send({ balanceMinutes: 2 ** 31 });
    expect([res.status, res.body.error]).toEqual([
      400,
      { code: 'VALIDATION', message: 'balanceMinutes must be <= 2147483647' },
    ]);
    const most = await stack.api
      .post('/admin/v1/accounts')
      .set(admin())
      .send({ balanceMinutes: 2 ** 31 - 1, developerMode: true });
    expect(most.status).toBe(201);
    const token = await stack.admin.token(most.body.account.id, ['account:read']);
    const whoami = await stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token.value}`);
    expect(whoami.body.wallet.balanceMinutes).toBe(2 ** 31 - 1);
  });

  it('refuses control characters in a display name and a blank or control-character token name', async () => {
    for (const displayName of ['line\nbreak', 'bell\u0007', 'tab\there', 'c1\u0085']) {
      const res = await stack.api.post('/admin/v1/accounts').set(admin()).send({ displayName });
      expect([displayName, res.status, res.body.error?.message]).toEqual([
        displayName,
        400,
        'displayName does not fit: At most 200 characters, none of them a control character (a line break, a tab).',
      ]);
    }
    const account = await stack.admin.account();
    for (const name of ['   ', 'two\nlines']) {
      const res = await stack.api
        .post(`/admin/v1/accounts/${account.id}/tokens`)
        .set(admin())
        .send({ name, scopes: ['recordings:read'] });
      expect([name, res.status, res.body.error?.code]).toEqual([name, 400, 'VALIDATION']);
    }
    const persian = await stack.api.post('/admin/v1/accounts').set(admin()).send({ displayName: 'سارا  ‌ی' });
    expect(persian.status).toBe(201);
  });

  it('names null among the expiries it takes', async () => {
    const account = await stack.admin.account();
    const res = await stack.api
      .post(`/admin/v1/accounts/${account.id}/tokens`)
      .set(admin())
      .send({ name: 'x', scopes: ['recordings:read'], expiresInDays: 7 });
    expect(res.body.error).toEqual({ code: 'VALIDATION', message: 'expiresInDays must be one of 30, 90, 365, null' });
  });

  it('answers an unknown admin path or method 404 in the envelope, to the key holder', async () => {
    for (const [method, path] of [
      ['get', '/admin/v1/nothing'],
      ['get', '/admin/v1/flags'],
    ] as const) {
      const res = await stack.api[method](path).set(admin());
      expect([path, res.status, res.body.error?.code]).toEqual([path, 404, 'NOT_FOUND']);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
    }
    // Without the key it stays the key's refusal.
    expect((await stack.api.get('/admin/v1/nothing')).status).toBe(401);
  });
});
