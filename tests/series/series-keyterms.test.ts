import { startStack, type Stack } from '../support/stack';
import { expectContract, expectError } from '../support/contract-response';
import { BROKEN_KEYTERM_RULES, EDGE_KEYTERMS, HUNDRED_TERMS } from '../support/keyterm-cases';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ RATE_LIMIT_SCALE: '10' });
});
afterAll(async () => {
  await stack.stop();
});

async function owner() {
  const account = await stack.admin.account();
  const token = await stack.admin.token(account.id, ['series:read', 'series:write']);
  const auth = { Authorization: `Bearer ${token.value}` };
  const { series } = (await stack.api.post('/api/v1/series').set(auth).send({ name: 'Vocabulary' })).body;
  return {
    account,
    series,
    get: (id = series.id) => stack.api.get(`/api/v1/series/${id}/keyterms`).set(auth),
    put: (body: unknown, id = series.id) =>
      stack.api
        .put(`/api/v1/series/${id}/keyterms`)
        .set(auth)
        .send(body as object),
  };
}

describe('GET and PUT /series/{id}/keyterms', () => {
  it('starts empty, inheriting the account terms', async () => {
    const me = await owner();
    expect(expectContract('getSeriesKeyterms', await me.get())).toEqual({
      schemaVersion: 1,
      keyterms: [],
      inheritAccountKeyterms: true,
    });
  });

  it('replaces the whole vocabulary, saving trimmed and collapsed terms in the order sent', async () => {
    const me = await owner();
    const put = expectContract(
      'replaceSeriesKeyterms',
      await me.put({ keyterms: EDGE_KEYTERMS.sent, inheritAccountKeyterms: false }),
    );
    expect(put).toEqual({ schemaVersion: 1, keyterms: EDGE_KEYTERMS.saved, inheritAccountKeyterms: false });
    expect(expectContract('getSeriesKeyterms', await me.get())).toEqual(put);
    const replaced = expectContract(
      'replaceSeriesKeyterms',
      await me.put({ keyterms: ['Only'], inheritAccountKeyterms: true }),
    );
    expect(replaced).toEqual({ schemaVersion: 1, keyterms: ['Only'], inheritAccountKeyterms: true });
  });

  it('accepts exactly 100 terms and an empty list', async () => {
    const me = await owner();
    expect(
      expectContract('replaceSeriesKeyterms', await me.put({ keyterms: HUNDRED_TERMS, inheritAccountKeyterms: true }))
        .keyterms,
    ).toHaveLength(100);
    expect(
      expectContract('replaceSeriesKeyterms', await me.put({ keyterms: [], inheritAccountKeyterms: true })).keyterms,
    ).toEqual([]);
  });

  it.each(BROKEN_KEYTERM_RULES)(
    'answers 400 VALIDATION naming the problem for $rule, and keeps the old vocabulary',
    async ({ keyterms, names }) => {
      const me = await owner();
      await me.put({ keyterms: ['Before'], inheritAccountKeyterms: false });
      const message = expectError(await me.put({ keyterms, inheritAccountKeyterms: true }), 400, 'VALIDATION');
      expect(message).toMatch(names);
      expect((await me.get()).body).toEqual({ schemaVersion: 1, keyterms: ['Before'], inheritAccountKeyterms: false });
    },
  );

  it('answers 400 VALIDATION for a missing field or an unlisted one', async () => {
    const me = await owner();
    expectError(await me.put({ keyterms: [] }), 400, 'VALIDATION');
    expectError(await me.put({ inheritAccountKeyterms: true }), 400, 'VALIDATION');
    expectError(await me.put({ keyterms: [], inheritAccountKeyterms: true, extra: 1 }), 400, 'VALIDATION');
  });

  it('answers 404 to a member and to another account, exactly like a missing series', async () => {
    const me = await owner();
    const other = await owner();
    await me.put({ keyterms: ['Mine'], inheritAccountKeyterms: true });
    const missing = await other.get('ser_missing');
    expectError(missing, 404, 'NOT_FOUND');
    expect((await other.get(me.series.id)).body).toEqual(missing.body);
    expectError(
      await other.put({ keyterms: ['Theirs'], inheritAccountKeyterms: true }, me.series.id),
      404,
      'NOT_FOUND',
    );
    await stack.admin.addSeriesMember(me.series.id, other.account.id);
    expectError(await other.get(me.series.id), 404, 'NOT_FOUND');
    expectError(
      await other.put({ keyterms: ['Theirs'], inheritAccountKeyterms: true }, me.series.id),
      404,
      'NOT_FOUND',
    );
    expect((await me.get()).body.keyterms).toEqual(['Mine']);
  });
});
