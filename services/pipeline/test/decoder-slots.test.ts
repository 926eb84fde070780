import { DecoderSlots } from '../src/engines/decoder-slots';

/** A task that runs until released, recording when it started. */
function gatedTask(log: string[], name: string) {
  let release!: () => void;
  const done = new Promise<void>((r) => (release = r));
  return {
    run: async () => {
      log.push(name);
      await done;
      return name;
    },
    release,
  };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('DecoderSlots', () => {
  it('runs at most `size` tasks at once and hands a freed slot to the first in line', async () => {
    const slots = new DecoderSlots(2);
    const started: string[] = [];
    const tasks = ['a1', 'a2', 'b1', 'b2'].map((n) => gatedTask(started, n));
    const results = tasks.map((t) => slots.run(t.run));
    await tick();
    expect(started).toEqual(['a1', 'a2']);
    tasks[1].release();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1']);
    // A newcomer queues behind b2, which was waiting first.
    const late = gatedTask(started, 'c1');
    const lateResult = slots.run(late.run);
    tasks[0].release();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'b2']);
    tasks[2].release();
    await tick();
    expect(started).toEqual(['a1', 'a2', 'b1', 'b2', 'c1']);
    tasks[3].release();
    late.release();
    await expect(Promise.all([...results, lateResult])).resolves.toEqual(['a1', 'a2', 'b1', 'b2', 'c1']);
  });

  it('frees the slot of a task that fails', async () => {
    const slots = new DecoderSlots(1);
    await expect(
      slots.run(async () => {
        throw new Error('decoder died');
      }),
    ).rejects.toThrow('decoder died');
    await expect(slots.run(async () => 'next')).resolves.toBe('next');
  });
});
