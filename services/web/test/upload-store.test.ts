import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UploadRefusal, UploadStore } from '../src/services/upload-store';

/** A pod's /tmp holds a browser upload's pieces until the last one: the store keeps to its budget. */
describe('the app upload store: a disk budget for unfinished uploads', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(path.join(tmpdir(), 'mm-upload-store-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const audio = (size: number) => ({ audio: { size, name: 'a.wav', type: 'audio/wav' } });
  const refusalOf = (p: Promise<unknown>) =>
    p.then(
      () => null,
      (err: unknown) => (err instanceof UploadRefusal ? { status: err.status, code: err.code, ...err.details } : err),
    );

  it('refuses, before writing anything, an upload that would take the declared bytes past the budget', async () => {
    const store = new UploadStore(path.join(dir, 'u'), 1000);
    const first = await store.create('acc_a', {
      ...audio(600),
      attachment: { size: 100, name: 'b.pdf', type: 'application/pdf' },
    });
    await expect(refusalOf(store.create('acc_b', audio(301)))).resolves.toEqual({
      status: 503,
      code: 'UPLOADS_BUSY',
      retryAfterSeconds: 30,
    });
    // Exactly at the budget is fine.
    const second = await store.create('acc_b', audio(300));
    await expect(refusalOf(store.create('acc_c', audio(1)))).resolves.toMatchObject({ code: 'UPLOADS_BUSY' });

    // A sent upload holds no bytes any more; a removed one neither.
    await store.write('acc_a', first, 'audio', 0, Buffer.alloc(600));
    await store.write('acc_a', first, 'attachment', 0, Buffer.alloc(100));
    await store.complete('acc_a', first);
    await store.sent('acc_a', first, { recording: { id: 'rec_1' } });
    const third = await store.create('acc_c', audio(700));
    await expect(refusalOf(store.create('acc_c', audio(1)))).resolves.toMatchObject({ code: 'UPLOADS_BUSY' });
    await store.remove('acc_b', second);
    await expect(store.create('acc_c', audio(300))).resolves.toEqual(expect.any(String));
    expect(third).toEqual(expect.any(String));
  });

  it('has no budget unless one is given', async () => {
    const store = new UploadStore(path.join(dir, 'u'));
    await expect(store.create('acc_a', audio(2 ** 40))).resolves.toEqual(expect.any(String));
  });
});
