import type { Response } from 'supertest';
import type { ValidateFunction } from 'ajv';
import { findRoute } from '@mm/contract';
import { createAjv } from '@mm/http';

const ajv = createAjv();
const compiled = new Map<string, ValidateFunction>();

/**
 * Asserts a success answer: the status the contract gives the operation, and a body valid
 * against the operation's response schema in libs/contract. Returns the body for further checks.
 */
export function expectContract(operationId: string, res: Response, status = 200): any {
  const route = findRoute(operationId);
  if (!route) throw new Error(`unknown operationId ${operationId}`);
  const response = route.responses.find((r) => r.status === status);
  if (!response) throw new Error(`${operationId} has no ${status} response in the contract`);
  if (res.status !== status)
    throw new Error(`${operationId}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
  const key = `${operationId}:${status}`;
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(response.schema);
    compiled.set(key, validate);
  }
  if (!validate(res.body))
    throw new Error(
      `${operationId} answer breaks its schema: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(res.body)}`,
    );
  return res.body;
}

/** Asserts an error answer: the HTTP status, the contract's envelope and code, and no schemaVersion. */
export function expectError(res: Response, status: number, code: string): string {
  if (res.status !== status || res.body?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body)}`);
  }
  expect(res.body).toEqual({ error: { code, message: expect.any(String) } });
  return res.body.error.message as string;
}
