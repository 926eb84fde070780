import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { PocketsphinxAsr } from '../src/engines/asr';
import { DecoderSlots } from '../src/engines/decoder-slots';

const run = promisify(execFile);

describe('PocketsphinxAsr on shared decoder slots', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'mm-asr-slots-'));
  });
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it("does not decode a chunk that waited for a slot while the meeting's other chunk failed", async () => {
    // 40 s of tone: audible, and long enough to be cut in two chunks.
    const wav = path.join(dir, 'tone.wav');
    await run('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', wav, 'synth', '40', 'sine', '440', 'vol', '0.3']);
    // A "decoder" that notes each start and fails.
    const starts = path.join(dir, 'starts');
    const decoder = path.join(dir, 'failing-decoder.sh');
    await fs.writeFile(
      decoder,
      `#!/bin/sh\necho start >> '${starts}'\necho 'ERROR: "model.c", line 1: broken model' >&2\nexit 1\n`,
      { mode: 0o755 },
    );

    const slots = new DecoderSlots(2);
    // Another transcription holds one slot until the first chunk has failed.
    let release!: () => void;
    const other = slots.run(() => new Promise<void>((r) => (release = r)));
    const asr = new PocketsphinxAsr({ binary: decoder, parallel: 2, slots, tmpDir: dir });
    const result = asr.transcribe({ wavPath: wav, keyterms: [] });
    const settled = result.catch((err: unknown) => err);
    // The first chunk runs in the free slot and fails while the second waits for the held one.
    for (let i = 0; i < 100 && !(await fs.readFile(starts, 'utf8').catch(() => '')); i++)
      await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 200));
    release();
    await other;
    expect(await settled).toMatchObject({ code: 'TRANSCRIBE_FAILED' });
    expect((await fs.readFile(starts, 'utf8')).trim().split('\n')).toHaveLength(1);
  }, 30000);
});
