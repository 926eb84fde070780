/**
 * `pnpm contract:types`: writes libs/contract/src/generated/operations.ts, the operation types
 * generated from the route tables. Run it after changing a route or a schema and commit the file;
 * tests/contract/operation-types.test.ts fails while it is stale.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { OPERATION_TYPES_FILE, operationTypesSource } from '../src/codegen/operation-types';

writeFileSync(OPERATION_TYPES_FILE, operationTypesSource());
console.log(`wrote ${path.relative(process.cwd(), OPERATION_TYPES_FILE)}`);
