import { buildOpenApi } from '@mm/contract';
import { operationsOf, resolveRef, type Json } from './openapi-walk';

const doc = buildOpenApi({ serverUrl: 'https://meetings.example.com/api/v1' }) as Json;
const declared = (doc.components as Json).headers as Json;

describe('answer headers in openapi.json: declared once in components.headers', () => {
  it('refers every header of every answer to components.headers, the rate fields to the route class', () => {
    const wrong: string[] = [];
    for (const { method, path, op } of operationsOf(doc)) {
      const rateClass = (op['x-svc-rate-limit'] as Json).class;
      for (const [status, response] of Object.entries(op.responses as Json)) {
        const headers = (response as Json).headers as Json;
        for (const [name, header] of Object.entries(headers)) {
          const ref = (header as Json).$ref;
          const expected = name.startsWith('RateLimit') ? `${name}.${String(rateClass)}` : name;
          if (ref !== `#/components/headers/${expected}`)
            wrong.push(`${method} ${path} ${status} ${name}: ${String(ref)}`);
          else expect(resolveRef(doc, header as Json)).toBe(declared[expected]);
        }
        const names = Object.keys(headers);
        if (!['RateLimit-Policy', 'RateLimit', 'Access-Control-Allow-Origin'].every((n) => names.includes(n))) {
          wrong.push(`${method} ${path} ${status}: ${names.join(', ')}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('declares no header that no answer uses', () => {
    const used = new Set(
      operationsOf(doc).flatMap(({ op }) =>
        Object.values(op.responses as Json).flatMap((r) =>
          Object.values((r as Json).headers as Json).map((h) => (h as Json).$ref),
        ),
      ),
    );
    expect(Object.keys(declared).filter((name) => !used.has(`#/components/headers/${name}`))).toEqual([]);
  });

  it('keeps the document under 1 MiB (each header text written once)', () => {
    expect(Buffer.byteLength(JSON.stringify(doc, null, 2))).toBeLessThan(1024 * 1024);
  });
});
