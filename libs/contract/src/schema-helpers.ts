/**
 * Small builders for JSON Schemas that carry the contract's two descriptions:
 * `description` (English) and `x-svc-description-fa` (Persian).
 */
export type JsonSchema = Record<string, unknown>;

export interface Texts {
  en: string;
  fa: string;
}

/** Writes a number with Persian digits, for numbers inside Persian texts. */
export function faDigits(n: number | string): string {
  return String(n).replace(/[0-9]/g, (digit) => '۰۱۲۳۴۵۶۷۸۹'[Number(digit)]);
}

/** Attaches English and Persian descriptions to a schema. */
export function described(schema: JsonSchema, en: string, fa: string): JsonSchema {
  return { ...schema, description: en, 'x-svc-description-fa': fa };
}

/**
 * A schema that only describes (it accepts anything, like `true`): a field's own two texts, for a
 * conditional fragment that requires a field whose type is given elsewhere.
 */
export const annotationsOf = (s: JsonSchema): JsonSchema => ({
  description: s.description,
  'x-svc-description-fa': s['x-svc-description-fa'],
});

/** A closed object schema: every listed property, `required` as given, nothing else allowed. */
export function object(
  properties: Record<string, JsonSchema>,
  required: string[] = Object.keys(properties),
  extra: JsonSchema = {},
): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false, ...extra };
}

/** An open object schema for responses: clients ignore unknown fields, so responses may add some. */
export function openObject(
  properties: Record<string, JsonSchema>,
  required: string[] = Object.keys(properties),
): JsonSchema {
  return { type: 'object', properties, required };
}

/**
 * Lets a schema also accept null. An `enum` or `const` gains null too, because a type
 * widened to null is useless while the enum still refuses it.
 */
export const nullable = (schema: JsonSchema): JsonSchema => {
  const t = schema.type;
  const out: JsonSchema = { ...schema };
  if (Array.isArray(schema.enum)) out.enum = [...(schema.enum as unknown[]), null];
  if ('const' in schema) {
    delete out.const;
    out.enum = [schema.const, null];
  }
  if (typeof t === 'string') return { ...out, type: [t, 'null'] };
  if (Array.isArray(t)) return t.includes('null') ? out : { ...out, type: [...t, 'null'] };
  if (out.enum) return out;
  return { anyOf: [schema, { type: 'null' }] };
};

/**
 * A regular expression source that accepts a string whose trimmed length (JavaScript's
 * `String.prototype.trim`) is between `min` and `max`, for fields the contract measures after
 * trimming, so that surrounding spaces never count toward the limit.
 */
export function trimmedLengthPattern(min: number, max: number): string {
  if (min < 1 || max < min) throw new Error(`bad trimmed length ${min}..${max}`);
  if (max === 1) return '^\\s*\\S\\s*$';
  const inner = min === 1 ? `(?:[\\s\\S]{0,${max - 2}}\\S)?` : `[\\s\\S]{${min - 2},${max - 2}}\\S`;
  return `^\\s*\\S${inner}\\s*$`;
}

/**
 * The raw length bound of a field the contract measures after trimming (or collapsing)
 * whitespace: twice the contract's limit, room for as much whitespace as text. Never below the
 * limit, so it refuses nothing the contract allows; it keeps the raw string bounded (OWASP API4).
 */
export const rawLengthOf = (limit: number): number => 2 * limit;

/** A string whose trimmed length is `min` to `max`: the pattern that measures it, and the raw bound. */
export function trimmedLength(min: number, max: number): JsonSchema {
  return { maxLength: rawLengthOf(max), pattern: trimmedLengthPattern(min, max) };
}

/**
 * The text parts of a multipart body schema: a copy without the binary parts (those with
 * `contentMediaType`), for validating the parsed text fields of a multipart request with ajv.
 */
export function withoutBinaryParts(schema: JsonSchema): JsonSchema {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const binary = Object.keys(props).filter((k) => 'contentMediaType' in props[k]);
  const properties = Object.fromEntries(Object.entries(props).filter(([k]) => !binary.includes(k)));
  const required = ((schema.required ?? []) as string[]).filter((k) => !binary.includes(k));
  return { ...schema, properties, required };
}

/** Names of the binary parts of a multipart body schema (properties with `contentMediaType`). */
export function binaryPartsOf(schema: JsonSchema): string[] {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  return Object.keys(props).filter((k) => 'contentMediaType' in props[k]);
}
