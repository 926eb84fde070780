import { createAjv, describeSchemaError } from '@mm/platform';
import type { JsonSchema } from '@mm/contract';
import type { ToolDef } from './tools';

const ajv = createAjv();
type ValidateFunction = ReturnType<typeof ajv.compile>;
type ErrorObject = NonNullable<ValidateFunction['errors']>[number];
/** Compiled once per schema: an HTTP server is built for each request, its tools alike. */
const compiled = new Map<string, ValidateFunction>();

/**
 * Why a call's arguments do not fit the tool's advertised inputSchema, in plain words naming the
 * argument; null when they fit. Nothing is coerced: `"2"` is not an integer, `true` is not `"true"`.
 */
export function argumentProblem(tool: ToolDef, args: unknown): string | null {
  const key = `${tool.name} ${JSON.stringify(tool.inputSchema)}`;
  let check = compiled.get(key);
  if (!check) {
    check = ajv.compile(tool.inputSchema);
    compiled.set(key, check);
  }
  // The shared ajv fills in defaults: check a copy, so that the call sends what the caller sent.
  if (check(structuredClone(args))) return null;
  return explain(tool, check.errors![0]);
}

function explain(tool: ToolDef, e: ErrorObject): string {
  const properties = tool.inputSchema.properties as Record<string, JsonSchema>;
  if (e.instancePath === '' && e.keyword === 'type') return 'the arguments must be an object';
  if (e.keyword !== 'additionalProperties') return describeSchemaError('', e);
  const name = (e.params as { additionalProperty: string }).additionalProperty;
  const known = Object.keys(properties);
  return known.length
    ? `${name} is not an argument of ${tool.name}; its arguments are ${known.join(', ')}`
    : `${name} is not an argument of ${tool.name}, which takes none`;
}
