import { readFileSync } from 'node:fs';
import { ALL_OPERATIONS, ROUTES } from '@mm/contract';
import { OPERATION_TYPES_FILE, operationTypesSource, tsOf } from '../../libs/contract/src/codegen/operation-types';

describe('operation types generated from the route tables', () => {
  it('the committed file is what the tables generate now (run `pnpm contract:types` after changing a route or schema)', () => {
    expect(readFileSync(OPERATION_TYPES_FILE, 'utf8')).toBe(operationTypesSource());
  });

  it("names every operation once: the public table, the admin API and the app's routes", () => {
    const ids = ALL_OPERATIONS.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of ROUTES) expect(ids).toContain(r.operationId);
    const source = operationTypesSource();
    for (const id of ids) expect(source).toContain(`  ${id}: { input:`);
  });

  it('writes the schema subset the contract uses as TypeScript', () => {
    const closed = {
      type: 'object',
      properties: { a: { type: 'integer', default: 3 }, b: { type: ['string', 'null'] }, c: { enum: ['x', 'y'] } },
      required: ['b'],
      additionalProperties: false,
    };
    expect(tsOf(closed, 'input').replace(/\s+/g, ' ')).toBe('{ a: number; b: string | null; c?: "x" | "y"; }');
    expect(tsOf(closed, 'output').replace(/\s+/g, ' ')).toBe('{ a?: number; b: string | null; c?: "x" | "y"; }');
    expect(tsOf({ type: 'array', items: { anyOf: [{ const: 1 }, { type: 'string' }] } }, 'output')).toBe(
      '(1 | string)[]',
    );
    expect(tsOf({ type: 'object', additionalProperties: { type: 'string' } }, 'input')).toBe('Record<string, string>');
  });
});
