import { startStack, type Stack } from '../support/stack';
import { expectContract, expectError } from '../support/contract-response';
import { BROKEN_KEYTERM_RULES, EDGE_KEYTERMS, HUNDRED_TERMS } from '../support/keyterm-cases';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.stop();
});

async function owner() {
  const account = await stack.admin.account();
  const token = await stack.admin.token(account.id, ['account:read', 'account:write']);
  const auth = { Authorization: `Bearer ${token.value}` };
  return {
    account,
    get: () => stack.api.get('/api/v1/account/keyterms').set(auth),
    put: (body: unknown) =>
      stack.api
        .put('/api/v1/account/keyterms')
        .set(auth)
        .send(body as object),
  };
}

describe('GET and PUT /account/keyterms', () => {
  it('starts empty', async () => {
    const me = await owner();
    expect(expectContract('getAccountKeyterms', await me.get())).toEqual({ schemaVersion: 1, keyterms: [] });
  });

  it('replaces the whole vocabulary, saving trimmed and collapsed terms in the order sent', async () => {
    const me = await owner();
    const put = expectContract('replaceAccountKeyterms', await me.put({ keyterms: EDGE_KEYTERMS.sent }));
    expect(put).toEqual({ schemaVersion: 1, keyterms: EDGE_KEYTERMS.saved });
    expect(expectContract('getAccountKeyterms', await me.get())).toEqual(put);
    expect(expectContract('replaceAccountKeyterms', await me.put({ keyterms: ['Only'] })).keyterms).toEqual(['Only']);
    expect(expectContract('replaceAccountKeyterms', await me.put({ keyterms: HUNDRED_TERMS })).keyterms).toEqual(
      HUNDRED_TERMS,
    );
    expect(expectContract('replaceAccountKeyterms', await me.put({ keyterms: [] })).keyterms).toEqual([]);
  });

  it.each(BROKEN_KEYTERM_RULES)(
    'answers 400 VALIDATION naming the problem for $rule, and keeps the old vocabulary',
    async ({ keyterms, names }) => {
      const me = await owner();
      await me.put({ keyterms: ['Before'] });
      const message = expectError(await me.put({ keyterms }), 400, 'VALIDATION');
      expect(message).toMatch(names);
      expect((await me.get()).body.keyterms).toEqual(['Before']);
    },
  );

  it('names the first problem when several terms break rules', async () => {
    const me = await owner();
    const message = expectError(await me.put({ keyterms: ['fine', 'a b c d e f', 'x'.repeat(60)] }), 400, 'VALIDATION');
    expect(message).toMatch(/keyterms\[1\].*words/);
  });

  it('answers 400 VALIDATION for a missing list, a list that is not an array, or an unlisted field', async () => {
    const me = await owner();
    for (const body of [{}, { keyterms: 'one, two' }, { keyterms: [], inheritAccountKeyterms: true }])
      expectError(await me.put(body), 400, 'VALIDATION');
  });
});
