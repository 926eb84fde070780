/**
 * Schemas as a model reads them: English only (the Persian texts stay in openapi.json), one
 * plain sentence per argument, and output schemas cut to the shape (types, fields, nesting) without
 * the contract's prose. Pure.
 */
import type { JsonSchema, RouteDef } from '@mm/contract';

/** Words of the wire a tool caller never sees: status codes, headers, bodies. */
const WIRE = /\b[1-5]\d\d\b|Idempotency|header|Retry-After|HTTP|multipart|text\/markdown|\bJSON body\b/;

/** The sentences of a text that speak of the tool, not of HTTP; at most `max` of them. */
export function plainSentences(text: string, max: number): string {
  return text
    .split(/(?<=\.)\s+(?=[A-Z`])/)
    .filter((s) => !WIRE.test(s))
    .slice(0, max)
    .join(' ');
}

/** Keywords a model needs to call well; bounds and patterns stay the service's to check (its refusal names the argument). */
const INPUT_KEYWORDS = new Set(['type', 'enum', 'const', 'items', 'properties', 'required', 'additionalProperties']);

/** An input schema for a model: the shape, enums, and the description's first plain clause. */
export function compactInput(s: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === 'description') {
      const plain = shortText(plainSentences(String(v), 1));
      if (plain) out.description = plain;
    } else if (k === 'properties')
      out.properties = Object.fromEntries(
        Object.entries(v as Record<string, JsonSchema>).map(([n, p]) => [n, compactInput(p)]),
      );
    else if (k === 'items') out.items = compactInput(v as JsonSchema);
    else if (k === 'format' && v === 'uri') out.format = v;
    else if (INPUT_KEYWORDS.has(k)) out[k] = v;
  }
  return out;
}

/**
 * A description cut to its first clause when long: within 70 characters, or else at the first `;`
 * or `(` within 110 (a rule whose first clause is long, "One term: trimmed, …, then 1 to 49
 * characters and at most 5 words; …", keeps its numbers instead of ending mid-rule with "…").
 */
function shortText(text: string): string {
  if (text.length <= 70) return text;
  let cut = text.slice(0, 70).search(/[;:(]|, (?!and\b)[^,]*$/);
  if (cut <= 20) {
    const later = text.slice(21, 110).search(/[;(]/);
    if (later >= 0) cut = 21 + later;
  }
  return (
    (cut > 20 ? text.slice(0, cut) : text.slice(0, 67).replace(/\s+\S*$/, '') + '…').replace(/[,\s]+$/, '') +
    (cut > 20 ? '.' : '')
  );
}

const OUTPUT_DEPTH = 1;

/**
 * An output schema for a model: types, fields and nesting to OUTPUT_DEPTH levels. It requires
 * nothing, so a tool error's `{ error }` fits it too; the fields it names have the types it says.
 */
export function compactOutput(s: JsonSchema, depth = 0): JsonSchema {
  const variants = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
  if (variants) {
    // A union of objects (digest sections) is left open: its kinds are told by `kind`.
    const nonNull = variants.filter((v) => v.type !== 'null');
    if (nonNull.length > 1 || depth >= OUTPUT_DEPTH) return {};
    return {
      anyOf: [compactOutput(nonNull[0], depth), ...(nonNull.length < variants.length ? [{ type: 'null' }] : [])],
    };
  }
  const out: JsonSchema = {};
  if (s.type !== undefined) out.type = s.type;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  if (depth >= OUTPUT_DEPTH) return out;
  if (types.includes('object') && s.properties) {
    const fields = Object.entries(s.properties as Record<string, JsonSchema>).filter(([n]) => n !== 'schemaVersion');
    out.properties = Object.fromEntries(fields.map(([n, p]) => [n, compactOutput(p, depth + 1)]));
  }
  if (types.includes('array') && s.items) out.items = compactOutput(s.items as JsonSchema, depth + 1);
  return out;
}

/** The route's JSON answer schema (the first 2xx with a JSON body). */
export function jsonAnswer(route: RouteDef): JsonSchema | undefined {
  return route.responses.find((r) => r.status < 300 && (r.contentType ?? 'application/json') === 'application/json')
    ?.schema;
}

/** An object output schema with these fields added to (or replacing) the route's answer. */
export function withFields(base: JsonSchema | undefined, fields: Record<string, JsonSchema>): JsonSchema {
  const compact = base ? compactOutput(base) : { type: 'object', properties: {} };
  return { ...compact, type: 'object', properties: { ...(compact.properties as object), ...fields } };
}
