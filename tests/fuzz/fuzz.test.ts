import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { ERROR_CODES, SCOPES } from '@mm/contract';
import { rawRequest, type RawResponse } from '../support/raw-http';
import { startStack, type Stack, type TestToken } from '../support/stack';
import { fromSchema, hostile, type Schema } from './schema-arbitrary';

/**
 * The schema-driven fuzzer: every operation of openapi.json, every parameter, header and body
 * field, valid and mutated values, malformed encodings and multipart bodies, sent byte for byte
 * through the gateway. No answer may be a 5xx; every error is the contract's envelope with a
 * catalog code and its status (or the plain-text 404 of a path that names nothing).
 * Seeded: FUZZ_SEED (default 20261123); FUZZ_RUNS requests per operation (`pnpm fuzz`: 2,000).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const RUNS = Number(process.env.FUZZ_RUNS ?? 40);

interface Operation {
  operationId: string;
  method: string;
  path: string;
  params: { name: string; in: string; required?: boolean; schema: Schema }[];
  body?: { type: string; schema: Schema };
}

interface Shot {
  head: string[];
  body: Buffer;
}

let stack: Stack;
let token: TestToken;
let ops: Operation[];
let resolve: (ref: string) => Schema;
const counts = new Map<string, Record<string, number>>();

beforeAll(async () => {
  stack = await startStack({ RATE_LIMIT_SCALE: '1000' });
  const account = await stack.admin.account({ balanceMinutes: 100_000 });
  token = await stack.admin.token(account.id, [...SCOPES]);
  const doc = (await stack.api.get('/api/v1/openapi.json')).body;
  resolve = (ref) =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce((o, k) => o[k], doc);
  ops = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const content = op.requestBody?.content ?? {};
      const type = Object.keys(content)[0];
      ops.push({
        operationId: op.operationId,
        method: method.toUpperCase(),
        path,
        params: op.parameters ?? [],
        body: type ? { type, schema: content[type].schema } : undefined,
      });
    }
  }
}, 60_000);

afterAll(async () => {
  if (process.env.FUZZ_REPORT !== '0') {
    const rows = [...counts].map(
      ([op, c]) =>
        `${op.padEnd(26)} ${Object.entries(c)
          .sort()
          .map(([s, n]) => `${s}:${n}`)
          .join(' ')}`,
    );
    process.stdout.write(`\nfuzz seed ${SEED}, ${RUNS} requests per operation\n${rows.join('\n')}\n`);
  }
  await stack?.stop();
});

/** Any generated value as text (objects without a prototype included). */
const text = (v: unknown): string => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''));

/** `arb` once in `oneIn` draws, else null. */
const rarely = <T>(arb: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> =>
  fc.oneof({ arbitrary: fc.constant(null), weight: oneIn - 1 }, { arbitrary: arb, weight: 1 });

/** A string as it goes into a URL: encoded, or left with malformed escapes on purpose. */
const urlPart = (v: unknown): fc.Arbitrary<string> =>
  fc
    .constantFrom(...Array<string>(12).fill('encoded'), 'raw-bad', 'half-escape')
    .map((how) =>
      how === 'encoded'
        ? encodeURIComponent(text(v))
        : how === 'raw-bad'
          ? `${encodeURIComponent(text(v))}%zz`
          : `%E0%A4%A${encodeURIComponent(text(v))}`,
    );

function pathOf(op: Operation): fc.Arbitrary<string> {
  const names = op.params.filter((p) => p.in === 'path');
  if (names.length === 0) return fc.constant(op.path);
  return fc
    .tuple(...names.map((p) => fromSchema(p.schema, resolve, 0.15).chain(urlPart)))
    .map((vals) => names.reduce((path, p, i) => path.replace(`{${p.name}}`, vals[i] || 'x'), op.path));
}

function queryOf(op: Operation): fc.Arbitrary<string> {
  const qs = op.params.filter((p) => p.in === 'query');
  const one = (p: Operation['params'][number]) =>
    fc.option(
      fc
        .tuple(fromSchema(p.schema, resolve).chain(urlPart), fc.nat(9))
        .map(([v, n]) => (n === 0 ? `${p.name}=${v}&${p.name}=${v}` : `${p.name}=${v}`)),
      { freq: 2 },
    );
  const extra = rarely(fc.constantFrom('%zz', 'unknown=1', '=', '&&', 'a[b]=1', '%00=%00'), 8);
  return fc.tuple(fc.tuple(...qs.map(one)), extra).map(([vals, x]) => {
    const parts = [...vals, x].filter((v): v is string => !!v);
    return parts.length ? `?${parts.join('&')}` : '';
  });
}

/** A header value that still parses as one header line (no line breaks), latin-1 at most. */
const headerSafe = (v: unknown) =>
  text(v)
    .replace(/[\r\n]/g, ' ')
    .replace(/[^\x20-\xff\t]/g, '?')
    .slice(0, 2_000);

function headersOf(op: Operation): fc.Arbitrary<string[]> {
  const auth = fc.oneof(
    { arbitrary: fc.constant(`Authorization: Bearer ${token.value}`), weight: 12 },
    fc.constant(`Authorization: bearer ${token.value}`),
    fc.constant('Authorization: Bearer svc_notatoken'),
    hostile.map((v) => `Authorization: ${headerSafe(v)}`),
    fc.constant(''),
  );
  const declared = op.params.filter((p) => p.in === 'header');
  const named = declared.map((p) =>
    fc.option(
      fromSchema(p.schema, resolve, 0.15).map((v) => `${p.name}: ${headerSafe(v)}`),
      { freq: 3 },
    ),
  );
  const noise = rarely(
    fc.constantFrom(
      'X-Forwarded-For: junk, 1.2.3.4',
      'X-Request-Id: ../../x',
      'X-Mm-Principal: forged',
      'Cookie: mm_session=1',
      'Accept-Encoding: *',
    ),
    4,
  );
  return fc.tuple(auth, fc.tuple(...named), noise).map(([a, n, x]) => [a, ...n, x].filter((h): h is string => !!h));
}

function deepJson(depth: number): string {
  return '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

function jsonBodyOf(schema: Schema): fc.Arbitrary<{ type: string | null; encoding: string | null; bytes: Buffer }> {
  const valid = fromSchema(schema, resolve).map((v) => Buffer.from(JSON.stringify(v) ?? 'null'));
  const broken = fc.oneof(
    fc
      .constantFrom('{', '{"a":}', 'null', '[]', '"x"', '\u00ff\u00fe{', deepJson(5_000), deepJson(50))
      .map((s) => Buffer.from(s, 'latin1')),
    fc.uint8Array({ maxLength: 200 }).map((a) => Buffer.from(a)),
  );
  const type = fc.oneof(
    { arbitrary: fc.constant('application/json'), weight: 8 },
    fc.constantFrom(
      'application/json; charset=latin1',
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'application/json; ;=;',
      null,
    ),
  );
  const encoding = fc.oneof(
    { arbitrary: fc.constant(null), weight: 8 },
    fc.constantFrom('gzip', 'gzip-valid', 'br', 'deflate', 'x-unknown'),
  );
  return fc
    .tuple(fc.oneof({ arbitrary: valid, weight: 4 }, broken), type, encoding)
    .map(([bytes, t, e]) =>
      e === 'gzip-valid' ? { type: t, encoding: 'gzip', bytes: gzipSync(bytes) } : { type: t, encoding: e, bytes },
    );
}

/** One second of a 440 Hz tone, 16 kHz mono 16-bit WAV: audio the service accepts. */
function toneWav(): Buffer {
  const data = Buffer.alloc(16_000 * 2);
  for (let i = 0; i < 16_000; i++)
    data.writeInt16LE(Math.round(8_000 * Math.sin((2 * Math.PI * 440 * i) / 16_000)), i * 2);
  const h = Buffer.alloc(44);
  h.write('RIFF', 0);
  h.writeUInt32LE(36 + data.length, 4);
  h.write('WAVEfmt ', 8);
  h.writeUInt32LE(16, 16);
  h.writeUInt16LE(1, 20);
  h.writeUInt16LE(1, 22);
  h.writeUInt32LE(16_000, 24);
  h.writeUInt32LE(32_000, 28);
  h.writeUInt16LE(2, 32);
  h.writeUInt16LE(16, 34);
  h.write('data', 36);
  h.writeUInt32LE(data.length, 40);
  return Buffer.concat([h, data]);
}
const TONE = toneWav();

function multipartOf(
  schema: Schema,
): fc.Arbitrary<{ type: string | null; encoding: null; bytes: Buffer; declared?: number }> {
  const props = Object.entries((schema.$ref ? resolve(schema.$ref) : schema).properties ?? {});
  const part = ([name, s]: [string, Schema]) =>
    fc.option(
      name === 'audio' || name === 'attachment'
        ? fc
            .oneof(
              fc.constant(TONE),
              fc.uint8Array({ maxLength: 512 }).map((a) => Buffer.concat([Buffer.from('RIFF'), Buffer.from(a)])),
            )
            .map((value) => ({ name, file: true, value }))
        : fromSchema(s, resolve).map((v) => ({
            name,
            file: false,
            value: Buffer.from(typeof v === 'string' ? v : (JSON.stringify(v) ?? '')),
          })),
      { freq: 2 },
    );
  const flaw = fc.constantFrom(
    ...Array<string>(10).fill('none'),
    'bad-part-header',
    'no-closing',
    'short',
    'no-boundary',
    'other-boundary',
    'no-name',
  );
  return fc.tuple(fc.tuple(...props.map(part)), flaw).map(([parts, f]) => {
    const b = 'fuzzBoundary42';
    const chunks: Buffer[] = [];
    for (const p of parts) {
      if (!p) continue;
      const disposition =
        f === 'no-name' ? 'form-data' : `form-data; name="${p.name}"${p.file ? '; filename="a.wav"' : ''}`;
      const header =
        f === 'bad-part-header' ? `Content-Disposition ${disposition}` : `Content-Disposition: ${disposition}`;
      chunks.push(Buffer.from(`--${b}\r\n${header}\r\n\r\n`), p.value, Buffer.from('\r\n'));
    }
    if (f !== 'no-closing') chunks.push(Buffer.from(`--${b}--\r\n`));
    const bytes = Buffer.concat(chunks);
    const type =
      f === 'no-boundary'
        ? 'multipart/form-data'
        : `multipart/form-data; boundary=${f === 'other-boundary' ? 'nope' : b}`;
    return { type, encoding: null, bytes, declared: f === 'short' ? bytes.length + 100 : undefined };
  });
}

function shotOf(op: Operation): fc.Arbitrary<Shot & { declared?: number }> {
  const body = !op.body
    ? fc.option(fc.constantFrom('{}', 'x'), { freq: 8 }).map((b) => ({
        type: b ? 'application/json' : null,
        encoding: null,
        bytes: Buffer.from(b ?? ''),
        declared: undefined as number | undefined,
      }))
    : op.body.type.startsWith('multipart/')
      ? multipartOf(op.body.schema)
      : jsonBodyOf(op.body.schema).map((b) => ({ ...b, declared: undefined as number | undefined }));
  return fc.tuple(pathOf(op), queryOf(op), headersOf(op), body).map(([path, query, headers, b]) => ({
    head: [
      `${op.method} /api/v1${path}${query} HTTP/1.1`,
      'Host: fuzz',
      ...headers,
      ...(b.type ? [`Content-Type: ${b.type}`] : []),
      ...(b.encoding ? [`Content-Encoding: ${b.encoding}`] : []),
      ...(b.bytes.length || op.method !== 'GET' ? [`Content-Length: ${b.declared ?? b.bytes.length}`] : []),
    ],
    body: b.bytes,
    declared: b.declared,
  }));
}

/** What every answer must be: no 5xx, and every error the contract's envelope (or the plain 404). */
function verdict(res: RawResponse): string | null {
  if (res.status >= 500) return `answered ${res.status}`;
  if (res.status < 400) return null;
  if (res.status === 404 && res.headers['content-type']?.startsWith('text/plain') && res.text === 'Not Found')
    return null;
  const code = (res.json as { error?: { code?: string } } | undefined)?.error?.code;
  if (!code || !(code in ERROR_CODES)) return `error without a contract code: ${res.text.slice(0, 200)}`;
  if (ERROR_CODES[code as keyof typeof ERROR_CODES] !== res.status) return `${code} with status ${res.status}`;
  return null;
}

it(
  'answers every fuzzed request of every operation without a 5xx, every error in the envelope',
  async () => {
    expect(ops.length).toBeGreaterThan(20);
    for (const op of ops) {
      const c: Record<string, number> = {};
      counts.set(op.operationId, c);
      await fc.assert(
        fc.asyncProperty(shotOf(op), async (shot) => {
          const res = await rawRequest(stack.url, shot.head.join('\n'), shot.body, shot.declared !== undefined);
          c[String(res.status)] = (c[String(res.status)] ?? 0) + 1;
          if (process.env.FUZZ_TRACE === op.operationId)
            process.stdout.write(`${res.status} ${res.text.slice(0, 120)} <= ${shot.head.join(' | ').slice(0, 300)}\n`);
          const wrong = verdict(res);
          if (wrong)
            throw new Error(
              `${op.operationId}: ${wrong}\n${shot.head.join('\n').slice(0, 1_000)}\n\n${shot.body.subarray(0, 300).toString('latin1')}`,
            );
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      );
    }
  },
  Math.max(120_000, RUNS * 26 * 200),
);
