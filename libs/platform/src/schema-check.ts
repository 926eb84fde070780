import Ajv2020, { type ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';

/** One ajv for the whole process, knowing the contract's vendor keywords. */
export function createAjv(): Ajv2020 {
  // verbose: an error carries its schema, whose description says a pattern's rule in words.
  const ajv = new Ajv2020({ allErrors: false, strict: true, strictRequired: false, useDefaults: true, verbose: true });
  addFormats(ajv);
  ajv.addVocabulary(['x-svc-description-fa', 'x-svc-summary-fa', 'example']);
  return ajv;
}

/** One schema error in plain words naming the field (`where` prefixes it: `query`, `body`, or '' for none). */
export function describeSchemaError(where: string, e: ErrorObject): string {
  const field = (where + e.instancePath.replace(/\//g, '.')).replace(/^\./, '');
  // Named from where it sits: `switches.FOO is not allowed`, not `switches is not allowed`.
  const inside = (name: string) => `${field ? field + '.' : ''}${name}`;
  if (e.keyword === 'required')
    return `${inside((e.params as { missingProperty: string }).missingProperty)} is required`;
  if (e.keyword === 'additionalProperties')
    return `${inside((e.params as { additionalProperty: string }).additionalProperty)} is not allowed`;
  if (e.keyword === 'minProperties') return `${where || 'body'} must have at least one field`;
  if (e.keyword === 'enum')
    return `${field} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => (v === null ? 'null' : String(v))).join(', ')}`;
  // A regular expression means nothing to a reader; the contract's description says the rule in words.
  const rule = (e.parentSchema as { description?: unknown } | undefined)?.description;
  if (e.keyword === 'pattern' && typeof rule === 'string') return `${field} does not fit: ${rule}`;
  return `${field || 'the body'} ${e.message ?? 'is invalid'}`;
}
