import type { Kysely } from 'kysely';

/**
 * `db` with a count of the statements run through it (each result passes each plugin once): how
 * the tests of per-turn batching tell one statement from several.
 */
export function countingStatements<DB>(db: Kysely<DB>): { db: Kysely<DB>; sent: { count: number } } {
  const sent = { count: 0 };
  return {
    db: db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        sent.count++;
        return args.result;
      },
    }),
    sent,
  };
}
