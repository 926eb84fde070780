import type { AccessRepository, ResolvedToken } from '../src/db/access.repository';
import { TokenLoader } from '../src/services/token-loader';

const token = (tokenId: string) => ({ tokenId }) as ResolvedToken;

function fakeRepo(known: Record<string, ResolvedToken>, fail = false) {
  const queries: string[][] = [];
  const repo: Pick<AccessRepository, 'findTokensByHashes'> = {
    async findTokensByHashes(hashes: readonly string[]) {
      queries.push([...hashes]);
      if (fail) throw new Error('postgres away');
      return new Map(hashes.filter((h) => known[h]).map((h) => [h, known[h]]));
    },
  };
  return { repo, queries };
}

it('loads the misses of one turn of the event loop in one query, each answered as itself', async () => {
  const { repo, queries } = fakeRepo({ a: token('tok_a'), b: token('tok_b') });
  const loader = new TokenLoader(repo);
  const answers = await Promise.all(['a', 'b', 'a', 'unknown'].map((h) => loader.load(h)));
  expect(answers.map((t) => t?.tokenId ?? null)).toEqual(['tok_a', 'tok_b', 'tok_a', null]);
  expect(queries).toEqual([['a', 'b', 'unknown']]);
  await loader.load('b');
  expect(queries).toHaveLength(2);
});

it('fails every request of a batch whose query failed', async () => {
  const { repo } = fakeRepo({}, true);
  const loader = new TokenLoader(repo);
  const results = await Promise.allSettled([loader.load('a'), loader.load('b')]);
  expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
});
