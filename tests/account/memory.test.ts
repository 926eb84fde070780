import { startStack, type Stack } from '../support/stack';
import { expectContract, expectError } from '../support/contract-response';
import { BUS } from '@mm/contract';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack.stop();
});

let meetings = 0;
const learn = (
  accountId: string,
  notes: { people?: string[]; terms?: string[]; topics?: string[] },
  meetingId = `rec_test_${++meetings}_${Date.now()}`,
) =>
  stack.request(BUS.memoryLearn, {
    accountId,
    meetingId,
    people: notes.people ?? [],
    terms: notes.terms ?? [],
    topics: notes.topics ?? [],
  });

async function owner() {
  const account = await stack.admin.account();
  const token = await stack.admin.token(account.id, ['account:read', 'account:write']);
  const auth = { Authorization: `Bearer ${token.value}` };
  return {
    account,
    list: () => stack.api.get('/api/v1/account/memory').set(auth),
    edit: (id: string, body: unknown) =>
      stack.api
        .patch(`/api/v1/account/memory/${id}`)
        .set(auth)
        .send(body as object),
    remove: (id: string) => stack.api.delete(`/api/v1/account/memory/${id}`).set(auth),
    settings: (body: Record<string, unknown>) => stack.api.patch('/api/v1/account/settings').set(auth).send(body),
    /** Memory switched off or on for the account (an app-side switch: the admin API's features.memory). */
    memory: (on: boolean) => stack.admin.patchAccount(account.id, { features: { memory: on } }),
  };
}

type Item = { id: string; category: string; text: string; meetingCount: number; pinned: boolean };
const byText = (items: Item[], text: string) => items.find((i) => i.text === text)!;

describe('GET /account/memory (listMemory)', () => {
  it('starts empty with memory on', async () => {
    const me = await owner();
    expect(expectContract('listMemory', await me.list())).toEqual({ schemaVersion: 1, memoryEnabled: true, items: [] });
  });

  it('lists learned notes by category; the same note from another meeting gains a meeting', async () => {
    const me = await owner();
    expect(
      await learn(me.account.id, {
        people: ['Sara', 'Omid'],
        terms: ['Kubernetes'],
        topics: ['Runs the platform team'],
      }),
    ).toMatchObject({ applied: true, added: 4 });
    expect(await learn(me.account.id, { people: ['sara '], terms: ['NATS'] })).toMatchObject({
      applied: true,
      added: 1,
      strengthened: 1,
    });
    const { items } = expectContract('listMemory', await me.list());
    expect(items.map((i: Item) => i.category)).toEqual(['ABOUT_YOU', 'PEOPLE', 'PEOPLE', 'TERMS', 'TERMS']);
    expect(byText(items, 'Sara')).toMatchObject({ category: 'PEOPLE', meetingCount: 2, pinned: false });
    expect(byText(items, 'Omid')).toMatchObject({ meetingCount: 1 });
  });

  it('learns from one meeting once, however often the request is delivered', async () => {
    const me = await owner();
    await learn(me.account.id, { people: ['Sara'] }, 'rec_once');
    expect(await learn(me.account.id, { people: ['Sara', 'Ali'] }, 'rec_once')).toMatchObject({
      applied: false,
      replay: true,
    });
    expect(expectContract('listMemory', await me.list()).items).toEqual([
      expect.objectContaining({ text: 'Sara', meetingCount: 1 }),
    ]);
  });

  it('keeps the notes listed, editable and in use while learning is off; only learning stops', async () => {
    const me = await owner();
    await learn(me.account.id, { terms: ['Grafana'] });
    expect(
      expectContract('updateAccountSettings', await me.settings({ memoryLearningEnabled: false })).settings
        .memoryLearningEnabled,
    ).toBe(false);
    const listed = expectContract('listMemory', await me.list());
    expect(listed).toMatchObject({ memoryEnabled: true, items: [expect.objectContaining({ text: 'Grafana' })] });
    expect(await learn(me.account.id, { terms: ['Prometheus'] }, 'rec_while_off')).toMatchObject({ applied: false });
    expect(
      expectContract('updateMemoryItem', await me.edit(listed.items[0].id, { text: 'Grafana dashboards' })).item,
    ).toMatchObject({ pinned: true });
    // Digests keep reading the notes.
    expect(await stack.request(BUS.memoryNotes, { accountId: me.account.id })).toEqual({
      items: [{ text: 'Grafana dashboards' }],
    });
    await me.settings({ memoryLearningEnabled: true });
    // A meeting handled while learning was off does not teach later.
    expect(await learn(me.account.id, { terms: ['Prometheus'] }, 'rec_while_off')).toMatchObject({
      applied: false,
      replay: true,
    });
    expect(expectContract('listMemory', await me.list()).items.map((i: Item) => i.text)).toEqual([
      'Grafana dashboards',
    ]);
  });

  it('answers memoryEnabled false and no items while memory is switched off; the notes come back when it is on', async () => {
    const me = await owner();
    await learn(me.account.id, { terms: ['Grafana'] });
    await me.memory(false);
    expect(expectContract('listMemory', await me.list())).toEqual({
      schemaVersion: 1,
      memoryEnabled: false,
      items: [],
    });
    await me.memory(true);
    expect(expectContract('listMemory', await me.list()).items.map((i: Item) => i.text)).toEqual(['Grafana']);
  });
});

describe('PATCH /account/memory/{id} (updateMemoryItem)', () => {
  it('saves the trimmed text and pins the note; the service then never rewrites it', async () => {
    const me = await owner();
    await learn(me.account.id, { people: ['Sara'] });
    const note = byText(expectContract('listMemory', await me.list()).items, 'Sara');
    const body = expectContract(
      'updateMemoryItem',
      await me.edit(note.id, { text: '  Sara Ahmadi, head of design  ' }),
    );
    expect(body.item).toEqual({
      id: note.id,
      category: 'PEOPLE',
      text: 'Sara Ahmadi, head of design',
      meetingCount: 1,
      pinned: true,
    });
    await learn(me.account.id, { people: ['Sara Ahmadi, head of design'] });
    expect(byText(expectContract('listMemory', await me.list()).items, 'Sara Ahmadi, head of design')).toEqual(
      body.item,
    );
  });

  it('answers 409 MEMORY_DUPLICATE for text another note of the category has, case ignored; other categories may share it', async () => {
    const me = await owner();
    await learn(me.account.id, { people: ['Sara', 'Omid'], terms: ['Omid'] });
    const items: Item[] = expectContract('listMemory', await me.list()).items;
    const sara = items.find((i) => i.text === 'Sara')!;
    expectError(await me.edit(sara.id, { text: 'omid' }), 409, 'MEMORY_DUPLICATE');
    const term = items.find((i) => i.category === 'TERMS')!;
    expect(expectContract('updateMemoryItem', await me.edit(term.id, { text: 'Sara' })).item.text).toBe('Sara');
    expect(expectContract('updateMemoryItem', await me.edit(sara.id, { text: 'SARA' })).item.text).toBe('SARA');
  });

  it('answers 409 MEMORY_DISABLED while memory is off', async () => {
    const me = await owner();
    await learn(me.account.id, { people: ['Sara'] });
    const note = byText(expectContract('listMemory', await me.list()).items, 'Sara');
    await me.memory(false);
    expectError(await me.edit(note.id, { text: 'Changed' }), 409, 'MEMORY_DISABLED');
    await me.memory(true);
    expect(byText(expectContract('listMemory', await me.list()).items, 'Sara').pinned).toBe(false);
  });

  it('answers 400 VALIDATION for blank, overlong or missing text and unlisted fields', async () => {
    const me = await owner();
    await learn(me.account.id, { people: ['Sara'] });
    const note = byText(expectContract('listMemory', await me.list()).items, 'Sara');
    for (const body of [
      { text: '' },
      { text: '   ' },
      { text: 'x'.repeat(1001) },
      {},
      { text: 'ok', pinned: false },
      { text: 'bad\u0000' },
    ]) {
      expectError(await me.edit(note.id, body), 400, 'VALIDATION');
    }
    expect(
      expectContract('updateMemoryItem', await me.edit(note.id, { text: ` ${'y'.repeat(1000)} ` })).item.text,
    ).toHaveLength(1000);
  });

  it("answers 404 for another account's note exactly like a missing one", async () => {
    const me = await owner();
    const stranger = await owner();
    await learn(me.account.id, { people: ['Sara'] });
    const note = byText(expectContract('listMemory', await me.list()).items, 'Sara');
    const foreign = await stranger.edit(note.id, { text: 'Mine' });
    expectError(foreign, 404, 'NOT_FOUND');
    expect(foreign.body).toEqual((await stranger.edit('mem_missing', { text: 'Mine' })).body);
    expectError(await stranger.remove(note.id), 404, 'NOT_FOUND');
    expect(byText(expectContract('listMemory', await me.list()).items, 'Sara').pinned).toBe(false);
  });
});

describe('DELETE /account/memory/{id} (deleteMemoryItem)', () => {
  it('deletes the note; another meeting may teach it again', async () => {
    const me = await owner();
    await learn(me.account.id, { terms: ['Kafka'] });
    const note = byText(expectContract('listMemory', await me.list()).items, 'Kafka');
    expect(expectContract('deleteMemoryItem', await me.remove(note.id))).toEqual({
      schemaVersion: 1,
      id: note.id,
      deleted: true,
    });
    expect(expectContract('listMemory', await me.list()).items).toEqual([]);
    expectError(await me.remove(note.id), 404, 'NOT_FOUND');
    await learn(me.account.id, { terms: ['Kafka'] });
    expect(expectContract('listMemory', await me.list()).items).toEqual([
      expect.objectContaining({ text: 'Kafka', meetingCount: 1 }),
    ]);
  });

  it('answers 409 MEMORY_DISABLED while memory is off and keeps the note', async () => {
    const me = await owner();
    await learn(me.account.id, { terms: ['Kafka'] });
    const note = byText(expectContract('listMemory', await me.list()).items, 'Kafka');
    await me.memory(false);
    expectError(await me.remove(note.id), 409, 'MEMORY_DISABLED');
    await me.memory(true);
    expect(expectContract('listMemory', await me.list()).items).toHaveLength(1);
  });
});

describe('settingsGet (for the recordings service)', () => {
  it('answers the settings and the account keyterms', async () => {
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['account:write']);
    const auth = { Authorization: `Bearer ${token.value}` };
    await stack.api.patch('/api/v1/account/settings').set(auth).send({ speakerNamingMode: 'FORCE_OFF' });
    await stack.api
      .put('/api/v1/account/keyterms')
      .set(auth)
      .send({ keyterms: ['Roadmap', 'OKR'] });
    expect(await stack.request(BUS.settingsGet, { accountId: account.id })).toEqual({
      settings: {
        speakerNamingMode: 'FORCE_OFF',
        memoryLearningEnabled: true,
        summaryEmailEnabled: false,
        uiLocale: 'en',
        deleteAudioAfterDigest: false,
      },
      keyterms: ['Roadmap', 'OKR'],
    });
    const fresh = await stack.admin.account();
    expect(await stack.request(BUS.settingsGet, { accountId: fresh.id })).toEqual({
      settings: {
        speakerNamingMode: 'AUTO',
        memoryLearningEnabled: true,
        summaryEmailEnabled: false,
        uiLocale: 'en',
        deleteAudioAfterDigest: false,
      },
      keyterms: [],
    });
  });
});
