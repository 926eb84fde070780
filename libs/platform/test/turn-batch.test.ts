import { TurnBatcher } from '../src/turn-batch';

function lookups(known: Record<string, number>, fail = false) {
  const asked: string[][] = [];
  const lookup = async (keys: string[]) => {
    asked.push(keys);
    if (fail) throw new Error('away');
    return new Map(keys.filter((k) => k in known).map((k) => [k, known[k]]));
  };
  return { asked, lookup };
}

describe('TurnBatcher', () => {
  it('looks up the keys of one turn together, once each, and answers each as itself', async () => {
    const { asked, lookup } = lookups({ a: 1, b: 2 });
    const batcher = new TurnBatcher(lookup, 100);
    const answers = await Promise.all(['a', 'b', 'a', 'unknown'].map((k) => batcher.load(k)));
    expect(answers).toEqual([1, 2, 1, undefined]);
    expect(asked).toEqual([['a', 'b', 'unknown']]);
  });

  it('starts a new lookup for a key asked after the turn ended', async () => {
    const { asked, lookup } = lookups({ a: 1 });
    const batcher = new TurnBatcher(lookup, 100);
    await batcher.load('a');
    await batcher.load('a');
    expect(asked).toEqual([['a'], ['a']]);
  });

  it('splits a turn into lookups of at most maxKeys', async () => {
    const { asked, lookup } = lookups({ a: 1, b: 2, c: 3 });
    const batcher = new TurnBatcher(lookup, 2);
    expect(await Promise.all(['a', 'b', 'c'].map((k) => batcher.load(k)))).toEqual([1, 2, 3]);
    expect(asked).toEqual([['a', 'b'], ['c']]);
  });

  it('fails every key of a failed lookup, and only those', async () => {
    const calls: string[][] = [];
    const batcher = new TurnBatcher(async (keys: string[]) => {
      calls.push(keys);
      if (keys.includes('bad')) throw new Error('away');
      return new Map(keys.map((k) => [k, k.length]));
    }, 2);
    const results = await Promise.allSettled(['bad', 'x', 'ok'].map((k) => batcher.load(k)));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect(calls).toEqual([['bad', 'x'], ['ok']]);
  });
});
