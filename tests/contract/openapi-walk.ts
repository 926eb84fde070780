/**
 * Walks an OpenAPI 3.1 document and yields every place that must carry English and Persian
 * texts: each field of each schema (recursively), each parameter, header, response, request
 * body and operation, and each property a conditional fragment (if/then/else) names. Fragments
 * only constrain fields defined beside them; `undocumentedConditionalFields` checks that.
 */
export type Json = Record<string, unknown>;

export interface TextSite {
  /** JSON pointer-ish location, for failure messages. */
  where: string;
  node: Json;
}

const COMPOSITIONS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Fragments that constrain fields defined beside them; `not` names fields only to forbid them. */
const CONDITIONALS = ['if', 'then', 'else'] as const;

function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Follows a local `$ref` such as `#/components/schemas/Error`. */
export function resolveRef(doc: Json, node: Json): Json {
  const ref = node.$ref;
  if (typeof ref !== 'string') return node;
  const target = ref
    .replace(/^#\//, '')
    .split('/')
    .reduce<unknown>((at, key) => (isObject(at) ? at[key.replace(/~1/g, '/').replace(/~0/g, '~')] : undefined), doc);
  if (!isObject(target)) throw new Error(`unresolvable ${ref}`);
  return target;
}

/**
 * Every field of a schema: the schema itself when `isField`, then each property, items and
 * additionalProperties schema, recursively; composition members are entered but, like a
 * `{ type: 'null' }` branch, are not fields of their own.
 */
export function schemaFields(
  doc: Json,
  schema: unknown,
  where: string,
  isField = true,
  out: TextSite[] = [],
): TextSite[] {
  if (!isObject(schema)) return out;
  if (typeof schema.$ref === 'string') return out; // components are walked on their own
  if (isField) out.push({ where, node: schema });
  if (isObject(schema.properties)) {
    for (const [name, sub] of Object.entries(schema.properties)) {
      // A boolean schema (`true`) names a field but cannot describe it.
      if (typeof sub === 'boolean') out.push({ where: `${where}.${name}`, node: {} });
      else schemaFields(doc, sub, `${where}.${name}`, true, out);
    }
  }
  if (isObject(schema.items)) schemaFields(doc, schema.items, `${where}[]`, true, out);
  if (Array.isArray(schema.prefixItems))
    schema.prefixItems.forEach((s, i) => schemaFields(doc, s, `${where}[${i}]`, true, out));
  if (isObject(schema.additionalProperties)) schemaFields(doc, schema.additionalProperties, `${where}{*}`, true, out);
  for (const key of COMPOSITIONS) {
    const members = schema[key];
    if (Array.isArray(members)) members.forEach((m, i) => schemaFields(doc, m, `${where}<${key}${i}>`, false, out));
  }
  // What a conditional fragment names is a field too: a reader walking every `properties` meets
  // the condition's (`if`) as well as what it requires (`then`, `else`).
  for (const key of CONDITIONALS)
    if (isObject(schema[key])) schemaFields(doc, schema[key], `${where}<${key}>`, false, out);
  return out;
}

/**
 * Property names that a conditional fragment (if/then/else, at any depth) mentions at its
 * first level but the schema beside it does not define: a field hidden from the docs.
 */
export function undocumentedConditionalFields(
  schema: unknown,
  where: string,
  out: string[] = [],
  inherited: ReadonlySet<string> = new Set(),
): string[] {
  if (!isObject(schema)) return out;
  // A composition member applies to the same object, so the fields beside it count as defined.
  const defined = new Set([...inherited, ...Object.keys(isObject(schema.properties) ? schema.properties : {})]);
  for (const key of CONDITIONALS) {
    const fragment = schema[key];
    if (!isObject(fragment)) continue;
    const props = isObject(fragment.properties) ? Object.keys(fragment.properties) : [];
    const required = Array.isArray(fragment.required) ? (fragment.required as string[]) : [];
    for (const name of new Set([...props, ...required])) if (!defined.has(name)) out.push(`${where}/${key}: ${name}`);
  }
  for (const key of COMPOSITIONS) {
    const members = schema[key];
    if (Array.isArray(members))
      members.forEach((m, i) => undocumentedConditionalFields(m, `${where}/${key}${i}`, out, defined));
  }
  if (isObject(schema.properties))
    for (const [n, s] of Object.entries(schema.properties)) undocumentedConditionalFields(s, `${where}.${n}`, out);
  if (isObject(schema.items)) undocumentedConditionalFields(schema.items, `${where}[]`, out);
  return out;
}

/** An operation with its method and path. */
export interface OperationSite {
  method: string;
  path: string;
  op: Json;
}

/** Every operation of the document. */
export function operationsOf(doc: Json): OperationSite[] {
  const ops: OperationSite[] = [];
  for (const [path, item] of Object.entries(doc.paths as Json)) {
    for (const [method, op] of Object.entries(item as Json)) {
      if (['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'].includes(method))
        ops.push({ method, path, op: op as Json });
    }
  }
  return ops;
}

/** Every place of the document that must carry `description` and `x-svc-description-fa`. */
export function textSites(doc: Json): TextSite[] {
  const sites: TextSite[] = [];
  for (const [name, schema] of Object.entries(((doc.components as Json).schemas ?? {}) as Json)) {
    schemaFields(doc, schema, `components.schemas.${name}`, true, sites);
  }
  for (const [name, header] of Object.entries(((doc.components as Json).headers ?? {}) as Json)) {
    sites.push({ where: `components.headers.${name}`, node: header as Json });
    schemaFields(doc, (header as Json).schema, `components.headers.${name} schema`, true, sites);
  }
  for (const [name, scheme] of Object.entries(((doc.components as Json).securitySchemes ?? {}) as Json)) {
    sites.push({ where: `components.securitySchemes.${name}`, node: scheme as Json });
  }
  for (const { method, path, op } of operationsOf(doc)) {
    const at = `${method.toUpperCase()} ${path}`;
    sites.push({ where: `${at} (operation)`, node: op });
    for (const p of (op.parameters ?? []) as Json[]) {
      const param = resolveRef(doc, p);
      sites.push({ where: `${at} param ${String(param.name)}`, node: param });
      schemaFields(doc, param.schema, `${at} param ${String(param.name)} schema`, true, sites);
    }
    const body = op.requestBody as Json | undefined;
    if (body) {
      sites.push({ where: `${at} requestBody`, node: body });
      for (const [ct, media] of Object.entries(body.content as Json))
        schemaFields(doc, (media as Json).schema, `${at} body(${ct})`, true, sites);
    }
    for (const [status, r] of Object.entries(op.responses as Json)) {
      const response = resolveRef(doc, r as Json);
      sites.push({ where: `${at} ${status}`, node: response });
      for (const [h, header] of Object.entries((response.headers ?? {}) as Json)) {
        if (typeof (header as Json).$ref === 'string') continue; // components are walked on their own
        sites.push({ where: `${at} ${status} header ${h}`, node: header as Json });
        schemaFields(doc, (header as Json).schema, `${at} ${status} header ${h} schema`, true, sites);
      }
      for (const [ct, media] of Object.entries((response.content ?? {}) as Json)) {
        schemaFields(doc, (media as Json).schema, `${at} ${status}(${ct})`, true, sites);
      }
    }
  }
  return sites;
}
