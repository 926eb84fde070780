import { startStack, type Stack } from '../support/stack';
import { expectContract, expectError } from '../support/contract-response';

let stack: Stack;
beforeAll(async () => {
  // Several tests create dozens of series with one token; the settings budget (60) is not under test here.
  stack = await startStack({
    RATE_LIMIT_SCALE: '10',
    APP_URL: 'https://app.example.test',
    PUBLIC_BASE_URL: 'https://api.example.test',
  });
});
afterAll(async () => {
  await stack.stop();
});

const ALL = ['series:read', 'series:write'];

async function owner(scopes = ALL) {
  const account = await stack.admin.account();
  const token = await stack.admin.token(account.id, scopes);
  const auth = { Authorization: `Bearer ${token.value}` };
  return {
    account,
    token,
    create: (body: Record<string, unknown>) => stack.api.post('/api/v1/series').set(auth).send(body),
    patch: (id: string, body: unknown) =>
      stack.api
        .patch(`/api/v1/series/${id}`)
        .set(auth)
        .send(body as object),
    get: (id: string) => stack.api.get(`/api/v1/series/${id}`).set(auth),
    list: () => stack.api.get('/api/v1/series/readable').set(auth),
  };
}

describe('POST /series (createSeries)', () => {
  it('answers 201 with the series and the contract defaults MEETING, MATCH, SESSION, AUTO', async () => {
    const me = await owner();
    const body = expectContract('createSeries', await me.create({ name: 'Weekly sync' }), 201);
    expect(body.series).toEqual({
      id: expect.stringMatching(/^ser_/),
      name: 'Weekly sync',
      access: 'owner',
      defaultKind: 'MEETING',
      defaultOutputLanguage: 'MATCH',
      titleStyle: 'SESSION',
      dateCalendar: 'AUTO',
      meetingCount: 0,
      lastRecordedAt: null,
    });
  });

  it('keeps the settings it is given', async () => {
    const me = await owner();
    const res = await me.create({
      name: 'Lectures',
      defaultKind: 'LECTURE',
      defaultOutputLanguage: 'FA',
      titleStyle: 'TOPIC',
      dateCalendar: 'JALALI',
    });
    expect(expectContract('createSeries', res, 201).series).toMatchObject({
      defaultKind: 'LECTURE',
      defaultOutputLanguage: 'FA',
      titleStyle: 'TOPIC',
      dateCalendar: 'JALALI',
    });
  });

  it('collapses whitespace runs, line breaks and tabs included, to one space and trims the ends', async () => {
    const me = await owner();
    const res = await me.create({ name: '  Team\t\tweekly \r\n  sync  ' });
    expect(expectContract('createSeries', res, 201).series.name).toBe('Team weekly sync');
  });

  it('accepts exactly 60 characters (counted after collapsing) and a Persian name with a half-space', async () => {
    const me = await owner();
    expect((await me.create({ name: `${'a'.repeat(30)}   ${'b'.repeat(29)}` })).status).toBe(201);
    const res = await me.create({ name: 'جلسه\u200cهای هفتگی' });
    expect(expectContract('createSeries', res, 201).series.name).toBe('جلسه\u200cهای هفتگی');
  });

  it('answers 400 VALIDATION for an empty, blank or 61-character name, and for other control characters', async () => {
    const me = await owner();
    for (const name of ['', '   ', '\n\t', 'a'.repeat(61), 'bell\u0007', 'nul\u0000byte', 'c1\u0085']) {
      expectError(await me.create({ name }), 400, 'VALIDATION');
    }
    expect((await me.list()).body.items).toEqual([]);
  });

  it('answers 400 VALIDATION for a missing name, a wrong enum value and an unlisted field', async () => {
    const me = await owner();
    expectError(await me.create({}), 400, 'VALIDATION');
    expectError(await me.create({ name: 'X', defaultKind: 'PODCAST' }), 400, 'VALIDATION');
    expectError(await me.create({ name: 'X', color: 'blue' }), 400, 'VALIDATION');
    expectError(await me.create({ name: 'X', meetingCount: 3 }), 400, 'VALIDATION');
    expect((await me.list()).body.items).toEqual([]);
  });

  it('answers 409 SERIES_NAME_TAKEN for a name the owner already uses, ignoring case and spacing', async () => {
    const me = await owner();
    expect((await me.create({ name: 'Board Meeting' })).status).toBe(201);
    expectError(await me.create({ name: 'board meeting' }), 409, 'SERIES_NAME_TAKEN');
    expectError(await me.create({ name: '  BOARD   MEETING ' }), 409, 'SERIES_NAME_TAKEN');
    // Another owner may use the same name.
    const other = await owner();
    expect((await other.create({ name: 'Board Meeting' })).status).toBe(201);
  });

  it('lets exactly one of concurrent creations with the same name win', async () => {
    const me = await owner();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => me.create({ name: i % 2 ? 'Race' : 'RACE' })),
    );
    expect(answers.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of answers.filter((r) => r.status !== 201)) expectError(r, 409, 'SERIES_NAME_TAKEN');
  });

  it('answers 409 SERIES_LIMIT for the 51st series, before looking at the name', async () => {
    const me = await owner();
    for (let i = 0; i < 50; i++) expect((await me.create({ name: `Series ${i}` })).status).toBe(201);
    expectError(await me.create({ name: 'One more' }), 409, 'SERIES_LIMIT');
    expectError(await me.create({ name: 'Series 1' }), 409, 'SERIES_LIMIT');
    expect((await me.list()).body.items).toHaveLength(50);
  });

  it('holds the limit when creations race: 60 at once make exactly 50', async () => {
    const me = await owner();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => me.create({ name: `Parallel ${i}` })));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(50);
    for (const r of answers.filter((r) => r.status !== 201)) expectError(r, 409, 'SERIES_LIMIT');
    expect((await me.list()).body.items).toHaveLength(50);
  });
});

describe('PATCH /series/{id} (updateSeries)', () => {
  it('changes the fields sent and keeps the others', async () => {
    const me = await owner();
    const { series } = (await me.create({ name: 'Standup', defaultKind: 'CALL' })).body;
    const body = expectContract(
      'updateSeries',
      await me.patch(series.id, { titleStyle: 'TOPIC', name: ' Daily\nstandup ' }),
    );
    expect(body.series).toMatchObject({
      id: series.id,
      name: 'Daily standup',
      titleStyle: 'TOPIC',
      defaultKind: 'CALL',
      access: 'owner',
    });
    expect(expectContract('getSeries', await me.get(series.id)).series).toEqual(body.series);
  });

  it('allows renaming a series to its own name in another case', async () => {
    const me = await owner();
    const { series } = (await me.create({ name: 'retro' })).body;
    expect(expectContract('updateSeries', await me.patch(series.id, { name: 'Retro' })).series.name).toBe('Retro');
  });

  it("answers 409 SERIES_NAME_TAKEN when another of the owner's series has the name", async () => {
    const me = await owner();
    await me.create({ name: 'Alpha' });
    const { series } = (await me.create({ name: 'Beta' })).body;
    expectError(await me.patch(series.id, { name: 'ALPHA' }), 409, 'SERIES_NAME_TAKEN');
    expect((await me.get(series.id)).body.series.name).toBe('Beta');
  });

  it('answers 400 VALIDATION for an empty body, an unlisted field and a bad name, and writes nothing', async () => {
    const me = await owner();
    const { series } = (await me.create({ name: 'Keep me' })).body;
    expectError(await me.patch(series.id, {}), 400, 'VALIDATION');
    expectError(await me.patch(series.id, { titleStyle: 'TOPIC', owner: 'x' }), 400, 'VALIDATION');
    expectError(await me.patch(series.id, { name: '  ', titleStyle: 'TOPIC' }), 400, 'VALIDATION');
    expectError(await me.patch(series.id, { name: 'x'.repeat(61) }), 400, 'VALIDATION');
    expect((await me.get(series.id)).body.series).toMatchObject({ name: 'Keep me', titleStyle: 'SESSION' });
  });

  it("answers 404 for another account's series exactly like a missing one, and for a member", async () => {
    const me = await owner();
    const stranger = await owner();
    const { series } = (await me.create({ name: 'Private' })).body;
    const foreign = await stranger.patch(series.id, { name: 'Mine now' });
    const missing = await stranger.patch('ser_missing', { name: 'Mine now' });
    expectError(foreign, 404, 'NOT_FOUND');
    expect(foreign.body).toEqual(missing.body);
    expect((await stack.admin.addSeriesMember(series.id, stranger.account.id)).status).toBe(200);
    expectError(await stranger.patch(series.id, { name: 'Mine now' }), 404, 'NOT_FOUND');
    expect((await me.get(series.id)).body.series.name).toBe('Private');
  });
});

describe('GET /series/{id} (getSeries) and GET /series/readable (listReadableSeries)', () => {
  it('lists owned series first, then joined ones, each group by name, with links', async () => {
    const me = await owner();
    const friend = await owner();
    const b = (await me.create({ name: 'bravo' })).body.series;
    const a = (await me.create({ name: 'Alpha' })).body.series;
    const joined = (await friend.create({ name: 'Aardvark club' })).body.series;
    expect((await stack.admin.addSeriesMember(joined.id, me.account.id)).status).toBe(200);
    const body = expectContract('listReadableSeries', await me.list());
    expect(body.items).toEqual([
      {
        id: a.id,
        name: 'Alpha',
        role: 'owner',
        meetingCount: 0,
        url: `https://app.example.test/series/${a.id}`,
        meetingsUrl: `https://api.example.test/api/v1/recordings/ready?seriesId=${a.id}`,
      },
      {
        id: b.id,
        name: 'bravo',
        role: 'owner',
        meetingCount: 0,
        url: `https://app.example.test/series/${b.id}`,
        meetingsUrl: `https://api.example.test/api/v1/recordings/ready?seriesId=${b.id}`,
      },
      {
        id: joined.id,
        name: 'Aardvark club',
        role: 'member',
        meetingCount: 0,
        url: `https://app.example.test/series/${joined.id}`,
        meetingsUrl: `https://api.example.test/api/v1/recordings/ready?seriesId=${joined.id}`,
      },
    ]);
    expect(expectContract('getSeries', await me.get(joined.id)).series).toMatchObject({
      id: joined.id,
      access: 'member',
    });
    expect(expectContract('getSeries', await me.get(a.id)).series).toMatchObject({ id: a.id, access: 'owner' });
  });

  it("answers 404 for another account's series exactly like a missing one", async () => {
    const me = await owner();
    const stranger = await owner();
    const { series } = (await me.create({ name: 'Secret' })).body;
    const foreign = await stranger.get(series.id);
    expectError(foreign, 404, 'NOT_FOUND');
    expect(foreign.body).toEqual((await stranger.get('ser_doesnotexist')).body);
    expect((await stranger.list()).body.items).toEqual([]);
  });

  it('answers 400 VALIDATION for an unknown query parameter on the list', async () => {
    const me = await owner();
    expectError(
      await stack.api.get('/api/v1/series/readable?sort=name').set({ Authorization: `Bearer ${me.token.value}` }),
      400,
      'VALIDATION',
    );
  });
});

describe('admin POST /admin/v1/series/{id}/members', () => {
  it('answers 200 once and again (idempotent), 404 for an unknown series or account, 400 for the owner or a bad body', async () => {
    const me = await owner();
    const friend = await stack.admin.account();
    const { series } = (await me.create({ name: 'Club' })).body;
    const first = await stack.admin.addSeriesMember(series.id, friend.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ seriesId: series.id, accountId: friend.id, added: true });
    expect((await stack.admin.addSeriesMember(series.id, friend.id)).body).toMatchObject({ added: false });
    expectError(await stack.admin.addSeriesMember('ser_missing', friend.id), 404, 'NOT_FOUND');
    expectError(await stack.admin.addSeriesMember(series.id, 'acc_missing'), 404, 'NOT_FOUND');
    expectError(await stack.admin.addSeriesMember(series.id, me.account.id), 400, 'VALIDATION');
    const { api, auth } = stack.admin.raw();
    expectError(
      await api.post(`/admin/v1/series/${series.id}/members`).set(auth).send({ accountId: friend.id, role: 'owner' }),
      400,
      'VALIDATION',
    );
  });
});

describe("while the account's series feature is off", () => {
  it('lists nothing and answers 404 on every other series route; back on, everything is there again', async () => {
    const me = await owner();
    const { series } = (await me.create({ name: 'Hidden' })).body;
    await stack.admin.patchAccount(me.account.id, { features: { series: false } });
    const auth = { Authorization: `Bearer ${me.token.value}` };
    expect(expectContract('listReadableSeries', await me.list()).items).toEqual([]);
    const missing = await me.get(series.id);
    expectError(missing, 404, 'NOT_FOUND');
    // A series it names answers as a missing one; creating one, which names none, says why.
    expect(missing.body).toEqual((await me.get('ser_doesnotexist')).body);
    const created = await me.create({ name: 'New' });
    expectError(created, 404, 'NOT_FOUND');
    expect(created.body.error.message).toBe('Series are not available to this account.');
    expectError(await me.create({}), 404, 'NOT_FOUND');
    expectError(await me.patch(series.id, { name: 'Renamed' }), 404, 'NOT_FOUND');
    expectError(await stack.api.get(`/api/v1/series/${series.id}/keyterms`).set(auth), 404, 'NOT_FOUND');
    expectError(
      await stack.api
        .put(`/api/v1/series/${series.id}/keyterms`)
        .set(auth)
        .send({ keyterms: [], inheritAccountKeyterms: false }),
      404,
      'NOT_FOUND',
    );
    await stack.admin.patchAccount(me.account.id, { features: { series: true } });
    expect(expectContract('listReadableSeries', await me.list()).items.map((i: { name: string }) => i.name)).toEqual([
      'Hidden',
    ]);
    expect((await me.get(series.id)).body.series.name).toBe('Hidden');
  });

  it('hides a joined series from a member whose feature is off', async () => {
    const me = await owner();
    const friend = await owner();
    const { series } = (await me.create({ name: 'Shared' })).body;
    await stack.admin.addSeriesMember(series.id, friend.account.id);
    await stack.admin.patchAccount(friend.account.id, { features: { series: false } });
    expect((await friend.list()).body.items).toEqual([]);
    expectError(await friend.get(series.id), 404, 'NOT_FOUND');
    expect((await me.get(series.id)).status).toBe(200);
  });
});
