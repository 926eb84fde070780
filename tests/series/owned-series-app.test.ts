import Ajv from 'ajv';
import { APP_INTERNAL_ROUTES } from '@mm/contract';
import { PRINCIPAL_HEADER } from '@mm/http';
import { ALL_FEATURES, principalFor } from '../support/app-principal';
import { startStack, type Stack } from '../support/stack';
import { expectContract } from '../support/contract-response';

/**
 * appListOwnedSeries (the upload page's series choice): the owner's series with each one's digest
 * defaults in one read of the series service. Only the app's principal reaches it; a joined series
 * is not the member's to file in, so it is not listed.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
}, 60_000);
afterAll(async () => {
  await stack.stop();
});

const route = APP_INTERNAL_ROUTES.find((r) => r.operationId === 'appListOwnedSeries')!;
const validate = new Ajv({ strict: false }).compile(route.responses[0]!.schema);
const bearer = (value: string) => ({ Authorization: `Bearer ${value}` });
const FEATURES = ALL_FEATURES;

const principalOf = (accountId: string, source: 'app' | 'token', features = FEATURES) =>
  principalFor(stack, accountId, source, { scopes: ['series:read', 'series:write'], features });

const ownedSeries = (principal: string) =>
  fetch(`${stack.serviceUrls.series}${route.path}`, { headers: { [PRINCIPAL_HEADER]: principal } });

describe("the app's owned series, in one read", () => {
  it("lists the owner's series by name with their defaults, leaves joined ones out, and is the app's alone", async () => {
    const owner = await stack.admin.account({ displayName: 'Owner' });
    const other = await stack.admin.account({ displayName: 'Other' });
    const ownerToken = (await stack.admin.token(owner.id, ['series:read', 'series:write'])).value;
    const otherToken = (await stack.admin.token(other.id, ['series:read', 'series:write'])).value;
    const create = async (token: string, body: Record<string, unknown>) =>
      expectContract('createSeries', await stack.api.post('/api/v1/series').set(bearer(token)).send(body), 201).series
        .id as string;
    const lectures = await create(ownerToken, {
      name: 'lectures',
      defaultKind: 'LECTURE',
      defaultOutputLanguage: 'FA',
    });
    const weekly = await create(ownerToken, { name: 'Weekly' });
    const joined = await create(otherToken, { name: 'Aardvark' });
    expect((await stack.admin.addSeriesMember(joined, owner.id)).status).toBe(200);

    const res = await ownedSeries(await principalOf(owner.id, 'app'));
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(validate(body)).toBe(true);
    expect(body).toEqual({
      schemaVersion: 1,
      series: [
        { id: lectures, name: 'lectures', defaultKind: 'LECTURE', defaultOutputLanguage: 'FA' },
        { id: weekly, name: 'Weekly', defaultKind: 'MEETING', defaultOutputLanguage: 'MATCH' },
      ],
    });

    // A token's principal never reaches an app route; series switched off answer 404 like every series route.
    expect((await ownedSeries(await principalOf(owner.id, 'token'))).status).toBe(401);
    const off = await ownedSeries(await principalOf(owner.id, 'app', { ...FEATURES, series: false }));
    expect(off.status).toBe(404);
    // Another account sees only its own.
    const theirs = (await (await ownedSeries(await principalOf(other.id, 'app'))).json()) as {
      series: { id: string }[];
    };
    expect(theirs.series.map((s) => s.id)).toEqual([joined]);
  }, 60_000);
});
