/**
 * What a JSON Schema change breaks for a consumer of the old schema: every value or constraint
 * the old schema promised and the new one no longer does. Additions (an optional property, a
 * wider type, a new enum value, a looser constraint) are not breaks. Pure: no I/O.
 *
 * Deliberately simple and conservative: combinator members (anyOf/oneOf/allOf) are compared by
 * index; `not` and `if` are not compared (the contract uses them only to forbid fields and to pick
 * branches); annotations (descriptions, examples) never count.
 */

export type Json = Record<string, unknown>;

/** The documents in which each side's local `$ref`s (`#/...`) are resolved. */
export interface SchemaRoots {
  old: unknown;
  new: unknown;
}

/**
 * Roots, and whether the schema describes what the service answers (a response) rather than what
 * a client sends: in an answer a tighter bound, or a format or pattern where there was none, only
 * narrows what the client receives, which breaks no client of the old schema.
 */
interface Context extends SchemaRoots {
  answers: boolean;
}

/** The int32 range, which `format: int32` restricts an integer to. */
const INT32 = { min: -(2 ** 31), max: 2 ** 31 - 1 };

const UPPER_BOUNDS = ['maxLength', 'maximum', 'exclusiveMaximum', 'maxItems', 'maxProperties'] as const;
const LOWER_BOUNDS = ['minLength', 'minimum', 'exclusiveMinimum', 'minItems', 'minProperties'] as const;
const EXACT_KEYWORDS = ['pattern', 'format', 'multipleOf'] as const;
const COMBINATORS = ['anyOf', 'oneOf', 'allOf'] as const;
const BRANCHES = ['then', 'else'] as const;

export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

const show = (v: unknown): string => JSON.stringify(v);

/** Keywords that constrain nothing: texts, and definitions only reached through `$ref`. */
const NOT_CONSTRAINING = [
  ...['description', 'title', 'examples', 'example', 'default', '$comment', 'deprecated'],
  ...['$defs', '$id', '$schema'],
];
const isAnnotation = (key: string): boolean => key.startsWith('x-') || NOT_CONSTRAINING.includes(key);

/** The members of a schema that is only a union (anyOf/oneOf beside annotations), else undefined. */
function unionOf(schema: Json): unknown[] | undefined {
  const keys = Object.keys(schema).filter((k) => !isAnnotation(k));
  if (keys.length !== 1 || (keys[0] !== 'anyOf' && keys[0] !== 'oneOf')) return undefined;
  const members = schema[keys[0]];
  return Array.isArray(members) && members.length > 0 ? members : undefined;
}

/** Follows a local `$ref` such as `#/components/schemas/Error` within `root`; records each ref in `refs`. */
function resolve(root: unknown, schema: unknown, refs: string[]): unknown {
  let at = schema;
  while (isObject(at) && typeof at.$ref === 'string') {
    const ref = at.$ref;
    if (!ref.startsWith('#')) throw new Error(`only local $ref is resolved, got ${ref}`);
    refs.push(ref);
    const target = ref
      .replace(/^#\/?/, '')
      .split('/')
      .filter((key) => key !== '')
      .map((key) => key.replace(/~1/g, '/').replace(/~0/g, '~'))
      .reduce<unknown>((node, key) => (isObject(node) ? node[key] : undefined), root);
    if (target === undefined) throw new Error(`unresolvable ${ref}`);
    at = target;
  }
  return at;
}

/** Follows a local `$ref` (`#/components/...`) within `root`; anything else is returned as it is. */
export function resolveLocalRef(root: unknown, node: unknown): unknown {
  return resolve(root, node, []);
}

/** The set of types a schema allows; undefined means any type. */
function typesOf(schema: Json): string[] | undefined {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  return Array.isArray(t) ? (t as string[]) : undefined;
}

/** The values a schema allows by enum or const; undefined means no such restriction. */
function valuesOf(schema: Json): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  return Array.isArray(schema.enum) ? schema.enum : undefined;
}

function typeBreaks(old: Json, neu: Json, path: string): string[] {
  const before = typesOf(old);
  const after = typesOf(neu);
  if (!after) return [];
  if (!before) return [`${path}: type restricted to ${show(after)}`];
  const covered = (t: string): boolean => after.includes(t) || (t === 'integer' && after.includes('number'));
  const removed = before.filter((t) => !covered(t));
  return removed.length ? [`${path}: type narrowed, no longer ${removed.join(', ')}`] : [];
}

function valueBreaks(old: Json, neu: Json, path: string): string[] {
  const after = valuesOf(neu);
  if (!after) return [];
  const before = valuesOf(old);
  if (!before) return [`${path}: values restricted to ${show(after)}`];
  const kept = new Set(after.map(show));
  const removed = before.filter((v) => !kept.has(show(v)));
  return removed.length ? [`${path}: value ${removed.map(show).join(', ')} removed`] : [];
}

const num = (s: Json, k: string): number | undefined => (typeof s[k] === 'number' ? (s[k] as number) : undefined);

/**
 * Whether a bound refuses only integers JSON cannot carry exactly (beyond 2^53 - 1, RFC 7493
 * section 2.2): a client that sent one was already misread.
 */
function beyondExactIntegers(k: string, b: number): boolean {
  if (k === 'maximum' || k === 'exclusiveMaximum') return b >= Number.MAX_SAFE_INTEGER;
  if (k === 'minimum' || k === 'exclusiveMinimum') return b <= -Number.MAX_SAFE_INTEGER;
  return false;
}

/**
 * Whether an integer format added where there was none refuses nothing the old schema allowed:
 * `int64` never does (every integer JSON carries exactly is one), `int32` when the old bounds
 * already kept the value inside its range.
 */
function formatNarrowsNothing(old: Json, format: unknown): boolean {
  if (!typesOf(old)?.includes('integer')) return false;
  if (format === 'int64') return true;
  const [min, max] = [num(old, 'minimum'), num(old, 'maximum')];
  return format === 'int32' && min !== undefined && max !== undefined && min >= INT32.min && max <= INT32.max;
}

function constraintBreaks(old: Json, neu: Json, path: string, answers: boolean): string[] {
  const out: string[] = [];
  // An answer that promises tighter bounds than before still fits every client of the old schema.
  for (const k of answers ? [] : UPPER_BOUNDS) {
    const [a, b] = [num(old, k), num(neu, k)];
    if (b !== undefined && (a === undefined || b < a) && !beyondExactIntegers(k, b))
      out.push(`${path}: ${k} tightened from ${a ?? 'none'} to ${b}`);
  }
  for (const k of answers ? [] : LOWER_BOUNDS) {
    const [a, b] = [num(old, k), num(neu, k)];
    if (b !== undefined && (a === undefined || b > a) && !beyondExactIntegers(k, b))
      out.push(`${path}: ${k} tightened from ${a ?? 'none'} to ${b}`);
  }
  for (const k of EXACT_KEYWORDS) {
    if (neu[k] === undefined || show(neu[k]) === show(old[k])) continue;
    // Added where there was none: in an answer it only narrows; an integer format may narrow nothing.
    if (old[k] === undefined && (answers || (k === 'format' && formatNarrowsNothing(old, neu[k])))) continue;
    out.push(`${path}: ${k} changed from ${show(old[k]) ?? 'none'} to ${show(neu[k])}`);
  }
  if (neu.uniqueItems === true && old.uniqueItems !== true && !answers) out.push(`${path}: items must now be unique`);
  return out;
}

function propertyBreaks(old: Json, neu: Json, path: string, roots: Context, seen: Set<string>): string[] {
  const out: string[] = [];
  const before = isObject(old.properties) ? old.properties : {};
  const after = isObject(neu.properties) ? neu.properties : {};
  for (const [name, schema] of Object.entries(before)) {
    // A property named only to forbid it (`false`) may go: nothing was promised.
    if (!(name in after)) {
      if (schema !== false) out.push(`${path}.${name}: property removed`);
    } else out.push(...compare(schema, after[name], `${path}.${name}`, roots, seen));
  }
  const wasRequired = new Set(Array.isArray(old.required) ? old.required : []);
  for (const name of Array.isArray(neu.required) ? neu.required : []) {
    if (!wasRequired.has(name)) out.push(`${path}.${String(name)}: new required property`);
  }
  // A property the old schema did not name fell under its additionalProperties: compare them.
  if ('additionalProperties' in neu || 'additionalProperties' in old) {
    const extraBefore = old.additionalProperties ?? true;
    out.push(...compare(extraBefore, neu.additionalProperties ?? true, `${path}{*}`, roots, seen));
    for (const name of Object.keys(after)) {
      if (!(name in before)) out.push(...compare(extraBefore, after[name], `${path}.${name}`, roots, seen));
    }
  }
  return out;
}

function combinatorBreaks(old: Json, neu: Json, path: string, roots: Context, seen: Set<string>): string[] {
  const out: string[] = [];
  for (const k of COMBINATORS) {
    const before = Array.isArray(old[k]) ? (old[k] as unknown[]) : [];
    const after = Array.isArray(neu[k]) ? (neu[k] as unknown[]) : [];
    before.forEach((member, i) => {
      if (i >= after.length) out.push(`${path}.${k}[${i}]: removed`);
      else out.push(...compare(member, after[i], `${path}.${k}[${i}]`, roots, seen));
    });
    if (k === 'allOf') {
      // A new allOf member only adds conditions.
      for (let i = before.length; i < after.length; i++) {
        out.push(...compare(true, after[i], `${path}.${k}[${i}]`, roots, seen));
      }
    } else if (before.length === 0 && after.length > 0) {
      // New alternatives restrict values to their union: the old schema must fit one of them.
      const fits = after.some((member) => compare(old, member, path, roots, seen).length === 0);
      if (!fits) out.push(`${path}.${k}: alternatives added that the old schema fits none of`);
    }
  }
  return out;
}

function compare(oldSchema: unknown, newSchema: unknown, path: string, roots: Context, seen: Set<string>): string[] {
  const oldRefs: string[] = [];
  const newRefs: string[] = [];
  const old = resolve(roots.old, oldSchema, oldRefs);
  const neu = resolve(roots.new, newSchema, newRefs);
  const refs = [...oldRefs.map((r) => `old ${r}`), ...newRefs.map((r) => `new ${r}`)];
  // A recursive schema: this pair is already being compared further out.
  if (refs.length > 0 && refs.every((r) => seen.has(r))) return [];
  const next = new Set([...seen, ...refs]);
  if (old === false) return [];
  if (neu === false) return [`${path}: no longer allowed`];
  const o: Json = isObject(old) ? old : {};
  const n: Json = isObject(neu) ? neu : {};
  const [oldUnion, newUnion] = [unionOf(o), unionOf(n)];
  if (newUnion && !oldUnion) {
    // Wrapped in alternatives (a schema made nullable, say): the old one must fit one of them.
    const tries = newUnion.map((member) => compare(o, member, path, roots, next));
    return tries.some((t) => t.length === 0) ? [] : tries.reduce((a, b) => (b.length < a.length ? b : a));
  }
  if (oldUnion && !newUnion) return oldUnion.flatMap((member) => compare(member, n, path, roots, next));
  const out = [...typeBreaks(o, n, path), ...valueBreaks(o, n, path), ...constraintBreaks(o, n, path, roots.answers)];
  // Object and array keywords say nothing about values of other types.
  const both = (t: string): boolean => [o, n].every((x) => typesOf(x)?.includes(t) ?? true);
  if (both('object')) out.push(...propertyBreaks(o, n, path, roots, next));
  if (both('array') && ('items' in o || 'items' in n)) {
    out.push(...compare(o.items ?? true, n.items ?? true, `${path}[]`, roots, next));
  }
  out.push(...combinatorBreaks(o, n, path, roots, next));
  for (const k of BRANCHES) {
    if (k in o || k in n) out.push(...compare(o[k] ?? true, n[k] ?? true, `${path}.${k}`, roots, next));
  }
  return out;
}

/**
 * Lists, in human-readable lines starting with `path`, what `newSchema` breaks for a consumer of
 * `oldSchema`: a removed (or renamed) property, a narrowed type, a removed enum or const value, a
 * new required property, a tighter constraint (max* lowered, min* raised, a changed pattern or
 * format, additionalProperties closed). Local `$ref`s resolve within `roots` (by default each
 * schema is its own document). `answers`: the schemas describe what the service answers, where
 * tighter bounds and an added format or pattern are no break. Not breaks either way: an integer
 * format that the old bounds already implied, a bound beyond the integers JSON carries exactly.
 * An empty list means the change is compatible.
 */
export function schemaBreaks(
  oldSchema: unknown,
  newSchema: unknown,
  path: string,
  roots?: SchemaRoots,
  answers = false,
): string[] {
  const { old, new: neu } = roots ?? { old: oldSchema, new: newSchema };
  return compare(oldSchema, newSchema, path, { old, new: neu, answers }, new Set());
}
