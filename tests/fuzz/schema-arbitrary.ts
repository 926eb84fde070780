import fc from 'fast-check';

/** The slice of JSON Schema the contract uses (libs/contract schemas, as openapi.json shows them). */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  items?: Schema;
  maxItems?: number;
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  $ref?: string;
}

/** Values meant to be wrong for any field: wrong types, edges, huge and hostile strings. */
export const hostile: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    -1,
    0,
    1e308,
    -0.5,
    '',
    ' ',
    '\u0000',
    '%zz',
    '../../etc/passwd',
    '<script>',
    '\u202e',
    'x'.repeat(70_000),
    [],
    {},
  ),
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.integer(),
  fc.double(),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);

function stringOf(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'date-time')
    return fc
      .date({ min: new Date('1990-01-01'), max: new Date('2040-01-01'), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (s.pattern) {
    try {
      return fc
        .stringMatching(new RegExp(s.pattern, 'u'), { size: 'xsmall' })
        .filter((v) => v.length <= (s.maxLength ?? 1_000));
    } catch {
      // A pattern fast-check cannot invert: plain strings of the allowed length.
    }
  }
  return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 200), unit: 'grapheme' });
}

/**
 * Values a schema accepts (mostly: patterns and cross-field rules are not all honoured), each
 * field replaced by a hostile value with probability `mutate`.
 */
export function fromSchema(schema: Schema, resolve: (ref: string) => Schema, mutate = 0.08): fc.Arbitrary<unknown> {
  const s = schema.$ref ? resolve(schema.$ref) : schema;
  const valid = validOf(s, resolve, mutate);
  return mutate > 0
    ? fc.oneof(
        { arbitrary: valid, weight: Math.round((1 - mutate) * 100) },
        { arbitrary: hostile, weight: Math.round(mutate * 100) },
      )
    : valid;
}

function validOf(s: Schema, resolve: (ref: string) => Schema, mutate: number): fc.Arbitrary<unknown> {
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) return fc.oneof(...alternatives.map((a) => fromSchema(a, resolve, mutate)));
  const type = Array.isArray(s.type) ? s.type : [s.type ?? 'string'];
  return fc.oneof(...type.map((t) => typed(t, s, resolve, mutate)));
}

function typed(t: string, s: Schema, resolve: (ref: string) => Schema, mutate: number): fc.Arbitrary<unknown> {
  switch (t) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: s.minimum ?? -1_000, max: s.maximum ?? 100_000 });
    case 'number':
      return fc.double({ min: s.minimum ?? -1_000, max: s.maximum ?? 100_000, noNaN: true });
    case 'array':
      return fc.array(fromSchema(s.items ?? {}, resolve, mutate), { maxLength: Math.min(s.maxItems ?? 5, 110) });
    case 'object': {
      const props = s.properties ?? {};
      const required = new Set(s.required ?? []);
      const record = Object.fromEntries(Object.entries(props).map(([k, v]) => [k, fromSchema(v, resolve, mutate)]));
      const optional = Object.keys(props).filter((k) => !required.has(k));
      return fc
        .record(record, { requiredKeys: [...required].filter((k) => k in props) as never[] })
        .map((o) => o as unknown)
        .chain((o) =>
          // Sometimes an unknown field too.
          fc
            .option(fc.string({ minLength: 1, maxLength: 8 }), { freq: 8 })
            .map((extra) => (extra && !optional.includes(extra) ? { ...(o as object), [extra]: 1 } : o)),
        );
    }
    default:
      return stringOf(s);
  }
}
