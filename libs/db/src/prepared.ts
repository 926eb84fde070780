import { createHash } from 'node:crypto';
import { sql, type Compilable, type CompiledQuery, type Kysely, type RawBuilder } from 'kysely';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { TurnBatcher } from '@mm/platform';

/** Stands in for the nth argument of a prepared query while it is compiled (a query parameter). */
class Slot {
  constructor(readonly index: number) {}
}

/** SQL text of every prepared query → its statement name (the same text always gets the same name). */
const statementNames = new Map<string, string>();

/** Anything a query runs on: the handle, or a transaction of it. */
type Runner = Pick<Kysely<any>, 'executeQuery'>;

/**
 * A read built and compiled once, then run with new arguments: the SQL text and its parameter
 * order are kept, and each run only puts the arguments in their places. kysely otherwise builds,
 * copies (each plugin), freezes and compiles the query's tree on every call: ~70–100 µs of CPU a
 * query on the bench machine, the largest JavaScript item of a read (docs/decisions.md, "Speed of
 * every route, round 3"). The statement is also named for Postgres (a server-side prepared
 * statement, parsed once per connection; openDatabase's connections send the name).
 *
 * `build` gets the handle and one stand-in per argument; it must pass each argument to kysely as a
 * value (`where(col, '=', a)`, `limit(n)`, `sql\`${a}\``), never branch on it or read it: the query
 * must have the same shape whatever the arguments (one prepared query per shape). A list of
 * variable length is one argument with `= any(${keyArray(a)})` (keyArray: the generic plan is kept), not `in`.
 */
export function prepared<DB, A extends unknown[], R>(
  build: (db: Kysely<DB>, ...args: A) => Compilable<R>,
): { all(db: Runner, ...args: A): Promise<R[]>; first(db: Runner, ...args: A): Promise<R | undefined> } {
  let compiled: CompiledQuery<R> | null = null;
  const compile = (db: Runner): CompiledQuery<R> => {
    if (compiled) return compiled;
    const slots = Array.from({ length: build.length - 1 }, (_, i) => new Slot(i));
    // The stand-ins take the arguments' places while compiling: `build` sees them as its arguments.
    const built: Compilable<R> = Reflect.apply(build, undefined, [db, ...slots]);
    const c = built.compile();
    const used = new Set(c.parameters.filter((p) => p instanceof Slot).map((p) => (p as Slot).index));
    if (used.size !== slots.length)
      throw new Error(`a prepared query must use each of its ${slots.length} arguments as a value: ${c.sql}`);
    if (!statementNames.has(c.sql))
      statementNames.set(c.sql, `mm_${createHash('sha256').update(c.sql).digest('hex').slice(0, 24)}`);
    compiled = c;
    return c;
  };
  const run = async (db: Runner, args: A): Promise<R[]> => {
    const c = compile(db);
    const parameters = c.parameters.map((p) => (p instanceof Slot ? args[p.index] : p));
    return (await db.executeQuery<R>({ ...c, parameters })).rows;
  };
  return {
    all: (db, ...args) => run(db, args),
    first: async (db, ...args) => (await run(db, args))[0],
  };
}

/** Keys per statement of a batched read by key: a bounded array, planned like any other. */
const MAX_KEYS_PER_READ = 100;

/**
 * An array of keys for a batched read (`id = any(${keyArray(ids)})`), behind a scalar subquery.
 * Postgres keeps a statement's generic plan (planned once per connection) only while it costs no
 * more than the plans it makes for each run's values. With the array in plain sight, each run's
 * plan counts the keys it was given (one, for a read alone) and the generic plan guesses ten, so
 * every run was planned afresh: 0.3–0.4 ms of Postgres for a lateral page read alone, 0.05 ms for
 * a row by id (docs/decisions.md, round 10). Behind a subquery neither plan can count them, both
 * guess alike, and the generic plan is kept. For a read whose best plan depends on how many keys
 * it gets (a count over a non-unique column), look at the generic plan on a large table first:
 * recordings' seriesStats keeps a bitmap scan of its index from one series to a series of 45,000
 * meetings (docs/decisions.md, session 30).
 */
export function keyArray(values: string[]): RawBuilder<string[]> {
  return sql<string[]>`(select ${values}::text[])::text[]`;
}

/** The key columns of a batched read as one `unnest` (`from ${unnestKeys(ids, accounts)} k(id, account_id)`), each a `keyArray`. */
export function unnestKeys(...columns: string[][]): RawBuilder<unknown> {
  return sql`unnest(${sql.join(columns.map(keyArray))})`;
}

/** Joins a key's columns into one map key: Postgres text never holds NUL, so none is ambiguous. */
const KEY_SEPARATOR = '\u0000';

/** One array of values per column of a key of `K`'s length: the arguments of a batched read. */
type Columns<K extends string[]> = { [I in keyof K]: string[] };

/**
 * A prepared read of rows by a key of one or more columns, whose calls of one turn of the event
 * loop share one statement (`TurnBatcher`): under load the reads whose requests arrived together
 * (pipelined on one connection from the gateway) cost Postgres one round trip instead of one each.
 * `build` gets one array per key column and matches them together: `= any(ids)` for one column,
 * a join on `unnest(ids, accounts)` for two, so a read for a caller keeps the caller in its SQL
 * (the owner test is Postgres's, as in a read of one key). `keyOf` names each row's key: the
 * values it was read for (a column the read selects for that, when a row can answer several keys).
 *
 * Each statement starts after every read in it was asked for, so no answer is older than its
 * question. Inside a transaction the read runs at once, alone, on the transaction. `first` answers
 * a key's first row, or undefined; `all` every row of the key, in the statement's order. Readers of
 * one turn asking for the same key get the same row objects: treat rows as read-only.
 *
 * `alone`, when given, is the read of one key by its values (no arrays to unnest, no key columns to
 * answer): a turn with one read in it, and a read inside a transaction, run it instead. For a read
 * whose batched form costs Postgres more than its plain one (a lateral join over unnested keys:
 * docs/decisions.md, round 11), so a read at low load costs what it did before it was batched.
 * Like `build`, it names each key column as its own parameter (no rest parameter: `prepared`).
 */
export function preparedByKeys<DB, K extends string[], R, A = R>(
  build: (db: Kysely<DB>, ...columns: Columns<K>) => Compilable<R>,
  keyOf: (row: R) => K,
  alone?: (db: Kysely<DB>, ...key: K) => Compilable<A>,
): { first(db: Runner, ...key: K): Promise<R | A | undefined>; all(db: Runner, ...key: K): Promise<(R | A)[]> } {
  const read = prepared(build as (db: Kysely<DB>, ...columns: string[][]) => Compilable<R>);
  const width = build.length - 1;
  const columnsOf = (keys: string[][]): string[][] =>
    Array.from({ length: width }, (_, c) => keys.map((key) => key[c] as string));
  const readAlone = alone && prepared(alone as (db: Kysely<DB>, ...key: string[]) => Compilable<A>);
  const one = (db: Runner, key: string[]): Promise<(R | A)[]> =>
    readAlone ? readAlone.all(db, ...key) : read.all(db, ...columnsOf([key]));
  const grouped = (rows: R[]): Map<string, R[]> => {
    const byKey = new Map<string, R[]>();
    for (const row of rows) {
      const k = keyOf(row).join(KEY_SEPARATOR);
      const group = byKey.get(k);
      if (group) group.push(row);
      else byKey.set(k, [row]);
    }
    return byKey;
  };
  const batchers = new WeakMap<Runner, TurnBatcher<string, (R | A)[]>>();
  const all = async (db: Runner, key: string[]): Promise<(R | A)[]> => {
    if (key.length !== width) throw new Error(`a key of this read has ${width} columns, not ${key.length}`);
    if ((db as Partial<Kysely<DB>>).isTransaction !== false) return one(db, key);
    let batcher = batchers.get(db);
    if (!batcher) {
      batcher = new TurnBatcher<string, (R | A)[]>(async (keys) => {
        const split = keys.map((k) => k.split(KEY_SEPARATOR));
        if (readAlone && split.length === 1) return new Map([[keys[0]!, await one(db, split[0]!)]]);
        return grouped(await read.all(db, ...columnsOf(split)));
      }, MAX_KEYS_PER_READ);
      batchers.set(db, batcher);
    }
    return (await batcher.load(key.join(KEY_SEPARATOR))) ?? [];
  };
  return {
    first: async (db, ...key) => (await all(db, key))[0],
    all: (db, ...key) => all(db, key),
  };
}

/** A batched read by a key of one column (`preparedByKeys`), answering a key's one row. */
export function preparedByKey<DB, R>(
  build: (db: Kysely<DB>, keys: string[]) => Compilable<R>,
  keyOf: (row: R) => string,
): { first(db: Runner, key: string): Promise<R | undefined> } {
  const read = preparedByKeys<DB, [string], R>(build, (row) => [keyOf(row)]);
  return { first: (db, key) => read.first(db, key) };
}

/** Beyond this many named texts, a new shape runs unnamed (a bound on what each connection keeps). */
const MAX_NAMED = 2000;

/**
 * Runs an already compiled read as a named statement (parsed and planned by Postgres's rule, below,
 * once per connection): for a read whose shape varies with a few options, each shape named once,
 * where `prepared` keeps one fixed shape. The read's text must not hold values (parameters only),
 * and its plan must not depend on them: a statement whose best plan changes with its values (a
 * trigram search for a rare or a common word) stays unnamed.
 */
export async function runNamed<R>(db: Runner, query: CompiledQuery<R>): Promise<R[]> {
  if (!statementNames.has(query.sql) && statementNames.size < MAX_NAMED)
    statementNames.set(query.sql, `mm_${createHash('sha256').update(query.sql).digest('hex').slice(0, 24)}`);
  return (await db.executeQuery<R>(query)).rows;
}

/** Stands in for a named value of a read prepared per shape (preparedShapes) while it is compiled. */
class NamedSlot {
  constructor(readonly name: string) {}
}

/** Beyond this many shapes of one read, a new shape is built on each call (a bound on what is kept). */
const MAX_SHAPES = 64;

/**
 * A read whose shape varies with a few options (which filters a search was given), built and
 * compiled once per shape and then run like `prepared`, each call only putting its values in their
 * places: building and compiling a large read with kysely costs more CPU than Postgres spends
 * running it (docs/decisions.md, "Speed of every route, round 6").
 *
 * `shape` holds only what picks the shape (flags, a count), never a value: it is the key the
 * compiled read is kept under. `build` gets the shape and one stand-in per named value (`v.owner`),
 * which it must pass to kysely as values only, as with `prepared`. Every value a shape uses must be
 * given on each call.
 */
export function preparedShapes<DB, S extends Record<string, boolean | number | string>, V extends object, R>(
  build: (db: Kysely<DB>, shape: S, v: V) => { compile(db: Kysely<DB>): CompiledQuery<R> },
): { all(db: Runner, shape: S, values: V): Promise<R[]> } {
  const shapes = new Map<string, CompiledQuery<R>>();
  const stand = new Proxy({} as V, {
    get: (_, name) => (typeof name === 'string' ? new NamedSlot(name) : undefined),
  });
  const compile = (db: Runner, shape: S): CompiledQuery<R> => {
    const key = JSON.stringify(shape);
    const kept = shapes.get(key);
    if (kept) return kept;
    const c = build(db as Kysely<DB>, shape, stand).compile(db as Kysely<DB>);
    if (!statementNames.has(c.sql) && statementNames.size < MAX_NAMED)
      statementNames.set(c.sql, `mm_${createHash('sha256').update(c.sql).digest('hex').slice(0, 24)}`);
    if (shapes.size < MAX_SHAPES) shapes.set(key, c);
    return c;
  };
  return {
    all: async (db, shape, values) => {
      const c = compile(db, shape);
      const parameters = c.parameters.map((p) => {
        if (!(p instanceof NamedSlot)) return p;
        const v = (values as Record<string, unknown>)[p.name];
        if (v === undefined) throw new Error(`a prepared read's shape uses the value ${p.name}, which was not given`);
        return v;
      });
      return (await db.executeQuery<R>({ ...c, parameters })).rows;
    },
  };
}

/**
 * Sends the name of a prepared query's statement with its text, on every connection of the pool:
 * Postgres parses and analyses it once per connection and keeps its plan by its own rule (a
 * generic plan once one is not worse than the custom ones: prepared queries are the simple,
 * selective reads). Any other query goes as it came.
 */
export function nameStatements(pool: Pool): void {
  pool.on('connect', (client: PoolClient) => {
    const query = client.query.bind(client) as (...a: unknown[]) => unknown;
    (client as { query: unknown }).query = (text: unknown, values?: unknown, cb?: unknown) => {
      const name = typeof text === 'string' && Array.isArray(values) ? statementNames.get(text) : undefined;
      if (name === undefined) return query(text, values, cb);
      const config: QueryConfig = { name, text: text as string, values: values as unknown[] };
      return cb === undefined ? query(config) : query(config, cb);
    };
  });
}
