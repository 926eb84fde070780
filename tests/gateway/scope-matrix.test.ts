import { startStack, type Stack } from '../support/stack';
import { ALL_SCOPES, EXPECTED_OPERATIONS } from '../support/contract-table';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.stop();
});

describe('scope matrix: every operation with a token holding each one scope', () => {
  it('answers 403 TOKEN_SCOPE exactly where the contract scopes table says, and never 500', async () => {
    const account = await stack.admin.account();
    const tokens = new Map<string, string>();
    for (const scope of ALL_SCOPES) tokens.set(scope, (await stack.admin.token(account.id, [scope])).value);
    const mismatches: string[] = [];
    for (const op of EXPECTED_OPERATIONS) {
      const path = `/api/v1${op.path.replace('{id}', 'id_matrix')}${op.operationId === 'searchRecordings' ? '?q=hello' : ''}`;
      for (const scope of ALL_SCOPES) {
        const res = await stack.api[op.method](path)
          .set('Authorization', `Bearer ${tokens.get(scope)}`)
          .send(op.method === 'get' || op.method === 'delete' ? undefined : {});
        const expectScope = op.scopes !== 'any' && !op.scopes.includes(scope);
        const got = res.body?.error?.code;
        if (expectScope !== (got === 'TOKEN_SCOPE') || res.status === 500)
          mismatches.push(`${op.operationId} with ${scope}: ${res.status} ${got}`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
