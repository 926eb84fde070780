/**
 * What a new OpenAPI document breaks for a client of the old one: a removed operation (by
 * operationId and by method and path), a removed parameter or a new required one, a removed
 * request body content type or response status or content type, and every schema break of a
 * parameter, request body or response (in a response a tighter bound, or a format or pattern
 * where there was none, only narrows what a client receives and is no break). Pure: no I/O.
 */
import { isObject, resolveLocalRef, schemaBreaks, type Json } from './schema-breaks';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

interface Operation {
  /** `GET /recordings/{id} (getRecording)`, for messages. */
  label: string;
  key: string;
  operationId?: string;
  op: Json;
  /** Path-level parameters, which every operation of the path shares. */
  shared: unknown[];
}

const objectAt = (node: unknown, key: string): Json => (isObject(node) && isObject(node[key]) ? node[key] : {});

function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, rawItem] of Object.entries(objectAt(doc, 'paths'))) {
    const item = resolveLocalRef(doc, rawItem);
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const op = item[method];
      if (!isObject(op)) continue;
      const key = `${method.toUpperCase()} ${path}`;
      const operationId = typeof op.operationId === 'string' ? op.operationId : undefined;
      const shared = Array.isArray(item.parameters) ? item.parameters : [];
      out.push({ label: operationId ? `${key} (${operationId})` : key, key, operationId, op, shared });
    }
  }
  return out;
}

function parametersOf(doc: Json, operation: Operation): Map<string, Json> {
  const out = new Map<string, Json>();
  const list = [...operation.shared, ...(Array.isArray(operation.op.parameters) ? operation.op.parameters : [])];
  for (const raw of list) {
    const p = resolveLocalRef(doc, raw);
    if (isObject(p)) out.set(`${String(p.in)} parameter ${String(p.name)}`, p); // operation-level wins
  }
  return out;
}

interface Docs {
  old: Json;
  new: Json;
}

function parameterBreaks(docs: Docs, before: Operation, after: Operation): string[] {
  const out: string[] = [];
  const [oldParams, newParams] = [parametersOf(docs.old, before), parametersOf(docs.new, after)];
  for (const [name, p] of oldParams) {
    const q = newParams.get(name);
    if (!q) out.push(`${after.label} ${name}: removed`);
    else out.push(...schemaBreaks(p.schema ?? true, q.schema ?? true, `${after.label} ${name}`, docs));
  }
  for (const [name, q] of newParams) {
    const wasRequired = oldParams.get(name)?.required === true;
    if (q.required === true && !wasRequired) out.push(`${after.label} ${name}: new required parameter`);
  }
  return out;
}

/**
 * Compares `content` maps (media type → { schema }): a removed media type, then each schema;
 * `answers` for a response's content (schemaBreaks).
 */
function contentBreaks(docs: Docs, oldContent: Json, newContent: Json, where: string, answers = false): string[] {
  const out: string[] = [];
  for (const [type, media] of Object.entries(oldContent)) {
    if (!(type in newContent)) {
      out.push(`${where} ${type}: content type removed`);
      continue;
    }
    const [before, after] = [objectAt(media, 'schema'), objectAt(newContent[type], 'schema')];
    out.push(...schemaBreaks(before, after, `${where} ${type}`, docs, answers));
  }
  return out;
}

function bodyBreaks(docs: Docs, before: Operation, after: Operation): string[] {
  const oldBody = resolveLocalRef(docs.old, before.op.requestBody);
  const newBody = resolveLocalRef(docs.new, after.op.requestBody);
  const where = `${after.label} request body`;
  if (!isObject(newBody)) return isObject(oldBody) ? [`${where}: removed`] : [];
  if (!isObject(oldBody)) return newBody.required === true ? [`${where}: new required request body`] : [];
  const out = newBody.required === true && oldBody.required !== true ? [`${where}: now required`] : [];
  return [...out, ...contentBreaks(docs, objectAt(oldBody, 'content'), objectAt(newBody, 'content'), where)];
}

function responseBreaks(docs: Docs, before: Operation, after: Operation): string[] {
  const out: string[] = [];
  const newResponses = objectAt(after.op, 'responses');
  for (const [status, raw] of Object.entries(objectAt(before.op, 'responses'))) {
    const where = `${after.label} response ${status}`;
    if (!(status in newResponses)) {
      out.push(`${where}: removed`);
      continue;
    }
    const oldContent = objectAt(resolveLocalRef(docs.old, raw), 'content');
    const newContent = objectAt(resolveLocalRef(docs.new, newResponses[status]), 'content');
    out.push(...contentBreaks(docs, oldContent, newContent, where, true));
  }
  return out;
}

/**
 * Lists what `newDoc` breaks for a client written against `oldDoc` (OpenAPI 3.x, local `$ref`s
 * resolved within each document), one human-readable line per break; empty when compatible.
 * An operation is found by operationId first, else by method and path; losing either is a break.
 */
export function openapiBreaks(oldDoc: Json, newDoc: Json): string[] {
  const out: string[] = [];
  const docs: Docs = { old: oldDoc, new: newDoc };
  const after = operationsOf(newDoc);
  const byId = new Map(after.filter((o) => o.operationId).map((o) => [o.operationId, o]));
  const byKey = new Map(after.map((o) => [o.key, o]));
  for (const before of operationsOf(oldDoc)) {
    const id = before.operationId;
    if (id && !byId.has(id)) out.push(`${before.label}: operation ${id} removed`);
    if (!byKey.has(before.key)) out.push(`${before.label}: ${before.key} removed`);
    const match = (before.operationId && byId.get(before.operationId)) || byKey.get(before.key);
    if (!match) continue;
    out.push(...parameterBreaks(docs, before, match), ...bodyBreaks(docs, before, match));
    out.push(...responseBreaks(docs, before, match));
  }
  return out;
}
