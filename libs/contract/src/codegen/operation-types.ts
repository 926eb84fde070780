/**
 * The generator of `src/generated/operations.ts`: each operation's input (path parameters, query,
 * body or multipart fields, the headers it names) and output (the body of its success answer) as
 * TypeScript types, written from the JSON Schemas of the route tables. The schemas stay the one
 * source: the validators check requests against them, and this makes the handlers' types.
 *
 * A small generator of our own (docs/decisions.md, "Operation types"): it knows the JSON Schema
 * subset the contract uses (type, enum, const, properties, required, additionalProperties, items,
 * anyOf/oneOf, allOf of conditions) and writes the types as validation leaves the data: a field
 * with a default is present in an input.
 */
import path from 'node:path';
import { ALL_OPERATIONS } from '../operations';
import type { InternalRouteDef, OperationDef } from '../routes.types';
import { binaryPartsOf, withoutBinaryParts, type JsonSchema } from '../schema-helpers';

/** Where the generated file lives (committed; a test fails while it is stale). */
export const OPERATION_TYPES_FILE = path.resolve(__dirname, '..', 'generated', 'operations.ts');

type Mode = 'input' | 'output';

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const key = (name: string) => (IDENT.test(name) ? name : JSON.stringify(name));
const pascal = (id: string) => id[0].toUpperCase() + id.slice(1);
const union = (parts: string[]) => {
  const unique = [...new Set(parts)];
  return unique.length === 0 ? 'never' : unique.join(' | ');
};
const paren = (t: string) => (/[|&]/.test(t) ? `(${t})` : t);

function comment(schema: JsonSchema, indent: string): string {
  const d = schema.description;
  if (typeof d !== 'string' || !d.trim()) return '';
  return `${indent}/** ${d.replace(/\*\//g, '* /').replace(/\s+/g, ' ').trim()} */\n`;
}

function objectType(schema: JsonSchema, mode: Mode, indent: string, drop: string[] = []): string {
  const props = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  const names = Object.keys(props).filter((n) => !drop.includes(n));
  const extra = schema.additionalProperties;
  if (names.length === 0) {
    if (extra && typeof extra === 'object') return `Record<string, ${tsOf(extra as JsonSchema, mode, indent)}>`;
    return extra === false ? 'Record<string, never>' : 'object';
  }
  const inner = `${indent}  `;
  const lines = names.map((n) => {
    // Validation fills a default in (ajv useDefaults): the handler always has the field.
    const present = required.has(n) || (mode === 'input' && props[n].default !== undefined);
    return `${comment(props[n], inner)}${inner}${key(n)}${present ? '' : '?'}: ${tsOf(props[n], mode, inner)};`;
  });
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** A JSON Schema as a TypeScript type. */
export function tsOf(schema: JsonSchema | boolean, mode: Mode, indent = ''): string {
  if (schema === true || schema === undefined) return 'unknown';
  if (schema === false) return 'never';
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return union(schema.enum.map((v) => JSON.stringify(v)));
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives)
    return union(
      alternatives.map((a) => paren(tsOf({ ...withoutKeys(schema, ['anyOf', 'oneOf']), ...a }, mode, indent))),
    );
  const t = schema.type;
  if (Array.isArray(t)) return union(t.map((one) => tsOf({ ...schema, type: one }, mode, indent)));
  // allOf holds the contract's conditional fragments (if/then): they narrow values, not the shape.
  switch (t) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${paren(tsOf((schema.items ?? true) as JsonSchema, mode, indent))}[]`;
    case 'object':
      return objectType(schema, mode, indent);
    default:
      return schema.properties ? objectType(schema, mode, indent) : 'unknown';
  }
}

function withoutKeys(schema: JsonSchema, keys: string[]): JsonSchema {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !keys.includes(k) && k !== 'description'));
}

/** The path parameters a path names (`/recordings/{id}` names `id`). */
export function pathParamNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}

function paramsType(op: OperationDef, where: 'path' | 'query' | 'header', at?: string): string {
  const named = at === undefined ? null : new Set(pathParamNames(at));
  const ps = op.params.filter((p) => p.in === where && (named === null || named.has(p.name)));
  if (ps.length === 0) return 'Record<string, never>';
  const lines = ps.map((p) => {
    // Headers arrive as node spells them (lower case) and as sent: the handler reads them raw.
    const name = where === 'header' ? p.name.toLowerCase() : p.name;
    const present = p.required || (where === 'query' && p.schema.default !== undefined);
    const type = where === 'header' ? 'string' : tsOf(p.schema, 'input', '    ');
    return `${comment(p.schema, '    ')}    ${key(name)}${present ? '' : '?'}: ${type};`;
  });
  return `{\n${lines.join('\n')}\n  }`;
}

function inputType(op: OperationDef): string {
  const body = op.body;
  let bodyType = 'undefined';
  let files = '';
  if (body?.contentType === 'application/json') bodyType = tsOf(body.schema, 'input', '  ');
  if (body?.contentType === 'multipart/form-data') {
    bodyType = tsOf(withoutBinaryParts(body.schema), 'input', '  ');
    const required = new Set((body.schema.required ?? []) as string[]);
    files = `\n  files: {\n${binaryPartsOf(body.schema)
      .map((n) => `    ${key(n)}${required.has(n) ? '' : '?'}: UploadedPart;`)
      .join('\n')}\n  };`;
  }
  return `{\n  params: ${paramsType(op, 'path')};\n  query: ${paramsType(op, 'query')};\n  headers: ${paramsType(op, 'header')};\n  body: ${bodyType};${files}\n}`;
}

/**
 * The JSON body as a caller sends it (a field with a default may be left out: validation fills it
 * in), when that differs from what the handler takes; null otherwise.
 */
function sentBodyType(op: OperationDef): string | null {
  if (op.body?.contentType !== 'application/json') return null;
  const sent = tsOf(op.body.schema, 'output', '');
  return sent === tsOf(op.body.schema, 'input', '') ? null : sent;
}

/** The success answers' bodies; `schemaVersion` is left to the mounting helper, which adds it. */
function outputType(op: OperationDef): string {
  const ok = op.responses.filter((r) => r.status < 300);
  return union(
    ok.map((r) => {
      const type = r.contentType ?? 'application/json';
      if (type !== 'application/json') return `TextAnswer<${JSON.stringify(type)}>`;
      const s = r.schema;
      return s.type === 'object' || s.properties ? objectType(s, 'output', '', ['schemaVersion']) : tsOf(s, 'output');
    }),
  );
}

/** The whole generated file. */
export function operationTypesSource(
  ops: readonly (OperationDef & Partial<Pick<InternalRouteDef, 'forward'>>)[] = ALL_OPERATIONS,
): string {
  const out: string[] = [
    '/* eslint-disable */',
    '// Generated by `pnpm contract:types` from the route tables (routes.ts, admin/admin.routes.ts): do not edit.',
    '// tests/contract/operation-types.test.ts fails while this file is stale.',
    '',
    '/** A file part of a multipart body, as it was stored while the body was read. */',
    'export interface UploadedPart {',
    '  path: string;',
    '  originalName: string;',
    '  mimeType: string;',
    '  size: number;',
    '}',
    '',
    '/** A success answer that is not JSON (a bundle as Markdown). */',
    'export interface TextAnswer<ContentType extends string> {',
    '  contentType: ContentType;',
    '  text: string;',
    '}',
    '',
  ];
  for (const op of ops) {
    const name = pascal(op.operationId);
    out.push(`/** ${op.method.toUpperCase()} ${op.path} */`);
    out.push(`export interface ${name}Input ${inputType(op)}`);
    out.push('');
    const sent = sentBodyType(op);
    if (sent) {
      out.push(`/** The JSON body a caller sends: a field with a default may be left out. */`);
      out.push(`export type ${name}Sent = ${sent};`);
      out.push('');
    }
    out.push(`export type ${name}Output = ${outputType(op)};`);
    out.push('');
  }
  // What a service receives of an operation the gateway forwards: the parameters of the path it forwards to.
  const forwarded = ops.flatMap((op) => (op.forward ? [{ op, path: op.forward.path }] : []));
  for (const { op, path } of forwarded) {
    const name = pascal(op.operationId);
    out.push(`/** ${op.method.toUpperCase()} ${path} (forwarded by the gateway from ${op.path}) */`);
    out.push(
      `export type ${name}ForwardedInput = Omit<${name}Input, 'params'> & { params: ${paramsType(op, 'path', path)} };`,
    );
    out.push('');
  }
  out.push('/** Every operation by its operationId: what its handler takes and gives, and the status of success. */');
  out.push('export interface OperationTypes {');
  for (const op of ops) {
    const status = op.responses.find((r) => r.status < 300)?.status ?? 200;
    const name = pascal(op.operationId);
    const sent = sentBodyType(op) ? `${name}Sent` : `${name}Input['body']`;
    out.push(
      `  ${key(op.operationId)}: { input: ${name}Input; sent: ${sent}; output: ${name}Output; status: ${status} };`,
    );
  }
  out.push('}');
  out.push('');
  out.push("/** The operations the gateway forwards to a service: what the service's handler takes there. */");
  out.push('export interface ForwardedOperationTypes {');
  for (const { op } of forwarded) {
    const name = pascal(op.operationId);
    out.push(`  ${key(op.operationId)}: { input: ${name}ForwardedInput; output: ${name}Output };`);
  }
  out.push('}');
  out.push('');
  out.push('export type OperationId = keyof OperationTypes;');
  out.push('export type ForwardedOperationId = keyof ForwardedOperationTypes;');
  out.push(
    "export type ForwardedOperationInput<Op extends ForwardedOperationId> = ForwardedOperationTypes[Op]['input'];",
  );
  out.push("export type OperationInput<Op extends OperationId> = OperationTypes[Op]['input'];");
  out.push("export type OperationOutput<Op extends OperationId> = OperationTypes[Op]['output'];");
  out.push("export type OperationSent<Op extends OperationId> = OperationTypes[Op]['sent'];");
  out.push('');
  return out.join('\n');
}
