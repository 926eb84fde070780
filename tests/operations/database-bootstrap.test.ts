import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { parseAllDocuments } from 'yaml';
import { migrateSchema } from '@mm/db';
import { startStack, type Stack } from '../support/stack';
import { SERVICE_SCHEMAS } from '../support/migrate';
import { loadConfig as seriesConfig } from '../../services/series/src/config';
import { startSeries } from '../../services/series/src/main';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;

/**
 * Issue 26's "Done when": a fresh database whose administrator has CREATEROLE and is no superuser
 * (as on RDS, Cloud SQL, Azure), the prod overlay's bootstrap Job and every service's migrate
 * initContainer run as the overlay runs them, then every service started under its own role answers /readyz.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const id = randomBytes(4).toString('hex');
const server = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/meeting_memory_test');
const database = `mm_boot_${id}`;
const admin = `mm_boot_admin_${id}`;
const prefix = `mmb${id}_`;
const work = mkdtempSync(path.join(tmpdir(), 'mm-boot-'));
const passwords: Record<string, string> = {};
/** The runtime roles' (`<SERVICE>_DB_APP_PASSWORD`, mm_<service>_app: rows only), when the bootstrap is given them. */
const appPasswords: Record<string, string> = {};

const objects: Obj[] = parseAllDocuments(
  execFileSync('kubectl', ['kustomize', path.join(ROOT, 'k8s', 'overlays', 'prod')], { encoding: 'utf8' }),
)
  .map((d) => d.toJS())
  .filter(Boolean);
const deployments = objects.filter((o) => o.kind === 'Deployment');
/** A service opens Postgres when its main.ts does (the app, services/web, too: its share links). */
const usesPostgres = (service: string) =>
  /openDatabase[<(]/.test(readFileSync(path.join(ROOT, 'services', service, 'src', 'main.ts'), 'utf8'));
const withDatabase = deployments.filter((d) => usesPostgres(d.metadata.name));

/**
 * A connection as the server's superuser, to make the administrator and drop everything after, or
 * (in `db`) to act as the owner of a database it made.
 */
async function asSuperuser(query: string, db = 'postgres'): Promise<void> {
  const url = new URL(server);
  url.pathname = `/${db}`;
  const client = new Client({ connectionString: url.toString() });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

function urlOf(role: string, password: string): string {
  const url = new URL(server);
  url.username = role;
  url.password = password;
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs a command to its end; resolves with its exit code and what it printed. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** The overlay's bootstrap Job: its script from its ConfigMap, its command, its environment and the administrator's. */
function runBootstrap(db = database, withApp = false): Promise<{ code: number | null; out: string }> {
  const job = objects.find((o) => o.kind === 'Job' && o.metadata.name === 'postgres-bootstrap');
  const container = job.spec.template.spec.containers[0];
  const volume = job.spec.template.spec.volumes.find((v: Obj) => v.configMap);
  const script = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === volume.configMap.name).data[
    'bootstrap.sh'
  ];
  const mount = container.volumeMounts.find((m: Obj) => m.name === volume.name).mountPath;
  expect(container.command).toEqual(['sh', `${mount}/bootstrap.sh`]);
  writeFileSync(path.join(work, 'bootstrap.sh'), script);
  const jobEnv = Object.fromEntries(container.env.map((e: Obj) => [e.name, e.value]));
  const env = {
    PATH: process.env.PATH,
    ...jobEnv,
    // Roles are the whole server's: this run's own names.
    ROLE_PREFIX: prefix,
    ...{
      PGHOST: server.hostname,
      PGPORT: server.port || '5432',
      PGDATABASE: db,
      PGUSER: admin,
      PGPASSWORD: 'unused-with-trust',
    },
    ...Object.fromEntries(Object.entries(passwords).map(([s, pw]) => [`${s.toUpperCase()}_DB_PASSWORD`, pw])),
    ...(withApp
      ? Object.fromEntries(Object.entries(appPasswords).map(([s, pw]) => [`${s.toUpperCase()}_DB_APP_PASSWORD`, pw]))
      : {}),
  };
  return run('sh', [path.join(work, 'bootstrap.sh')], env);
}

/** A Deployment's migrate initContainer, run from the source tree (`src/main.js` is `src/main.ts` under tsx). */
function runMigrate(deployment: Obj, runtimeRole = false): Promise<{ code: number | null; out: string }> {
  const service = deployment.metadata.name as string;
  const init = deployment.spec.template.spec.initContainers.find((c: Obj) => c.name === 'migrate');
  expect(init.image).toBe(deployment.spec.template.spec.containers[0].image);
  const [node, main, ...args] = init.command as string[];
  expect([node, main]).toEqual(['node', 'src/main.js']);
  const ref = init.env.find((e: Obj) => e.name === 'DATABASE_URL').valueFrom.secretKeyRef;
  expect(ref).toEqual({ name: `${service}-secrets`, key: 'DATABASE_URL' });
  const owner = init.env.find((e: Obj) => e.name === 'MIGRATION_DATABASE_URL').valueFrom.secretKeyRef;
  expect(owner).toEqual({ name: `${service}-secrets`, key: 'MIGRATION_DATABASE_URL', optional: true });
  const ownerUrl = urlOf(`${prefix}${service}`, passwords[service]);
  // With a runtime role, the Secret's DATABASE_URL is that role's and MIGRATION_DATABASE_URL the owner's.
  const env = runtimeRole
    ? {
        PATH: process.env.PATH,
        DATABASE_URL: urlOf(`${prefix}${service}_app`, appPasswords[service]),
        MIGRATION_DATABASE_URL: ownerUrl,
      }
    : { PATH: process.env.PATH, DATABASE_URL: ownerUrl };
  return run(
    process.execPath,
    ['--import', 'tsx', path.join(ROOT, 'services', service, 'src', 'main.ts'), ...args],
    env,
  );
}

let stack: Stack | null = null;

beforeAll(async () => {
  for (const d of withDatabase) {
    passwords[d.metadata.name] = randomBytes(12).toString('hex');
    appPasswords[d.metadata.name] = randomBytes(12).toString('hex');
  }
  await asSuperuser(`create role ${admin} login createrole nosuperuser nocreatedb`);
  // The platform's part: a database its administrator owns (RDS's master user, Cloud SQL's postgres).
  await asSuperuser(`create database ${database} owner ${admin}`);
});

afterAll(async () => {
  await stack?.stop();
  await asSuperuser(`drop database if exists ${database} with (force)`);
  await asSuperuser(`drop database if exists ${database}_notowned with (force)`);
  await asSuperuser(`drop database if exists ${database}_closed with (force)`);
  for (const s of Object.keys(passwords)) {
    // The owner's default privileges name the runtime role: dropped with the databases above.
    await asSuperuser(`drop role if exists ${prefix}${s}_app`);
    await asSuperuser(`drop role if exists ${prefix}${s}`);
  }
  await asSuperuser(`drop role if exists ${admin}`);
  rmSync(work, { recursive: true, force: true });
});

describe('the prod overlay on a fresh database with a CREATEROLE administrator (no superuser)', () => {
  it('bootstraps roles and schemas (twice), migrates each schema as its role, and every service answers /readyz', async () => {
    for (let i = 0; i < 2; i++) {
      const boot = await runBootstrap();
      expect({ code: boot.code, out: boot.out }).toEqual({ code: 0, out: expect.stringContaining('ready') });
    }
    const roles = Object.keys(passwords).map((s) => `${prefix}${s}`);
    const client = new Client({ connectionString: urlOf(admin, 'unused-with-trust') });
    await client.connect();
    try {
      const rights = await client.query(
        `select r.rolname, r.rolsuper, has_database_privilege(r.rolname, current_database(), 'CREATE') as create_db, n.nspname
           from pg_roles r left join pg_namespace n on n.nspowner = r.oid where r.rolname = any($1) order by r.rolname`,
        [roles],
      );
      // One role per service that opens Postgres, no superuser, no CREATE on the database, owning one
      // schema: the gateway's is `access`. No other role of this run's prefix.
      expect(rights.rows).toHaveLength(roles.length);
      const made = await client.query(`select rolname from pg_roles where starts_with(rolname, $1) order by rolname`, [
        prefix,
      ]);
      expect(made.rows.map((r) => r.rolname)).toEqual([...roles].sort());
      expect(rights.rows.filter((r) => r.rolsuper || r.create_db)).toEqual([]);
      expect(rights.rows.find((r) => r.rolname === `${prefix}gateway`).nspname).toBe('access');
    } finally {
      await client.end();
    }

    // A start before the migration step is refused, naming the step.
    const base = { ...process.env, LOG_LEVEL: 'silent', DATABASE_URL: urlOf(`${prefix}series`, passwords.series) };
    await expect(startSeries({ ...seriesConfig(base), port: 0 })).rejects.toThrow(
      /schema series has no migrations applied: run the migration step first/,
    );

    // A Deployment has a migrate step and a DATABASE_URL exactly when its code opens Postgres.
    for (const d of deployments) {
      const pod = d.spec.template.spec;
      const named = JSON.stringify([...(pod.initContainers ?? []), ...pod.containers]).includes('DATABASE_URL');
      const migrates = (pod.initContainers ?? []).some((c: Obj) => c.name === 'migrate');
      expect({ name: d.metadata.name, named, migrates }).toEqual({
        name: d.metadata.name,
        named: usesPostgres(d.metadata.name),
        migrates: usesPostgres(d.metadata.name),
      });
    }
    expect(withDatabase.length).toBeGreaterThan(0);
    // Every service's step at once, as the pods of one apply; then again, twice at once (several
    // pods of a rollout): nothing left to apply, no error.
    const steps = await Promise.all(withDatabase.map((d) => runMigrate(d)));
    expect(steps.map((s) => ({ code: s.code, out: s.out.trim() }))).toEqual(
      steps.map(() => ({ code: 0, out: expect.stringMatching(/migrate: schema \w+ is current \(applied /) })),
    );
    const { schema, migrations } = SERVICE_SCHEMAS.recordings;
    const recordingsUrl = urlOf(`${prefix}recordings`, passwords.recordings);
    expect(
      await Promise.all([
        migrateSchema(recordingsUrl, schema, migrations),
        migrateSchema(recordingsUrl, schema, migrations),
      ]),
    ).toEqual([[], []]);

    // The runtime roles added to the install that has run (the bootstrap again, with
    // <SERVICE>_DB_APP_PASSWORD): each migration step then runs as the owner, the service as the role.
    const withApp = await runBootstrap(database, true);
    expect({ code: withApp.code, out: withApp.out }).toEqual({
      code: 0,
      out: expect.stringContaining('runtime roles'),
    });
    const again = await Promise.all(withDatabase.map((d) => runMigrate(d, true)));
    expect(again.map((s) => ({ code: s.code, out: s.out.trim() }))).toEqual(
      again.map(() => ({ code: 0, out: expect.stringMatching(/migrate: schema \w+ is current$/) })),
    );
    // It reads and writes rows, and can change nothing else: not drop, alter or empty a table.
    const runtime = new Client({ connectionString: urlOf(`${prefix}recordings_app`, appPasswords.recordings) });
    const owner = new Client({ connectionString: recordingsUrl });
    await Promise.all([runtime.connect(), owner.connect()]);
    try {
      await expect(runtime.query('select count(*) from recordings.outbox')).resolves.toBeDefined();
      for (const ddl of [
        'drop table recordings.outbox',
        'alter table recordings.outbox add column x int',
        'truncate recordings.outbox',
      ])
        await expect(runtime.query(ddl)).rejects.toThrow(/must be owner|permission denied/);
      await expect(runtime.query('create table recordings.mine (x int)')).rejects.toThrow(/permission denied/);
      // A table a later migration makes (as the owner) is the runtime role's to use at once.
      await owner.query('create table recordings.later_migration (id serial primary key, x int)');
      await expect(
        runtime.query('insert into recordings.later_migration (x) values (1) returning id'),
      ).resolves.toMatchObject({
        rows: [{ id: 1 }],
      });
      await owner.query('drop table recordings.later_migration');
    } finally {
      await Promise.all([runtime.end(), owner.end()]);
    }

    const urls = Object.fromEntries(Object.entries(appPasswords).map(([s, pw]) => [s, urlOf(`${prefix}${s}_app`, pw)]));
    stack = await startStack({}, { pipeline: true, databaseUrls: urls });
    const ready: Record<string, number> = {};
    for (const [name, running] of Object.entries(stack.services)) {
      ready[name] = (await fetch(`http://127.0.0.1:${running.opsPort ?? running.port}/readyz`)).status;
    }
    expect(ready).toEqual(Object.fromEntries(deployments.map((d) => [d.metadata.name, 200])));
    // Writes of several services under their runtime roles: an account, a token, its whoami.
    const account = await stack.admin.account();
    const token = await stack.admin.token(account.id, ['account:read']);
    const whoami = await stack.api.get('/api/v1/whoami').set('Authorization', `Bearer ${token.value}`);
    expect(whoami.status).toBe(200);
  }, 120_000);

  it('says what the owner must run when the administrator has only CREATE on the database (PUBLIC keeps CONNECT)', async () => {
    // A platform that keeps the database's ownership and grants its administrator CREATE on it:
    // the roles and schemas are made, but the REVOKE from PUBLIC and GRANT CONNECT only warn.
    const notOwned = `${database}_notowned`;
    await asSuperuser(`create database ${notOwned}`);
    await asSuperuser(`grant create on database ${notOwned} to ${admin}`);
    const boot = await runBootstrap(notOwned);
    expect(boot.code).toBe(0);
    const warning = boot.out.split('\n').find((l) => l.startsWith('bootstrap: warning:'));
    expect(warning).toMatch(
      new RegExp(
        `does not own database ${notOwned}.*as its owner run: REVOKE ALL ON DATABASE ${notOwned} FROM PUBLIC;.*GRANT CONNECT ON DATABASE ${notOwned} TO ${prefix}gateway, `,
      ),
    );
    // Run as the owner, the statements leave nothing to say.
    await asSuperuser(warning!.replace(/^.*as its owner run: /, ''), notOwned);
    const again = await runBootstrap(notOwned);
    expect({ code: again.code, warned: again.out.includes('bootstrap: warning:') }).toEqual({ code: 0, warned: false });
  });

  it("says what the owner must run when the owner had already revoked PUBLIC's CONNECT (the roles could not connect)", async () => {
    // A hardened database: PUBLIC may not connect, the administrator may connect and create. The
    // roles are made, but their GRANT CONNECT only warns, so no service could open it.
    const closed = `${database}_closed`;
    await asSuperuser(`create database ${closed}`);
    await asSuperuser(`revoke all on database ${closed} from public`);
    await asSuperuser(`grant connect, create on database ${closed} to ${admin}`);
    const boot = await runBootstrap(closed);
    expect(boot.code).toBe(0);
    const roles = Object.keys(passwords).map((s) => `${prefix}${s}`);
    const warning = boot.out.split('\n').find((l) => l.startsWith('bootstrap: warning:'));
    const said = warning?.match(
      /^bootstrap: warning: the administrator does not own database (\S+), so the roles (.+) cannot connect to it; as its owner run: GRANT CONNECT ON DATABASE (\S+) TO (.+);$/,
    );
    // Every service's role, and nothing about PUBLIC (it has no rights left there).
    expect(said && { db: [said[1], said[3]], roles: said[2].split(', ').sort(), grant: said[4] }).toEqual({
      db: [closed, closed],
      roles: [...roles].sort(),
      grant: said?.[2],
    });
    const url = new URL(urlOf(`${prefix}gateway`, passwords.gateway));
    url.pathname = `/${closed}`;
    const connectAsGateway = async (): Promise<string> => {
      const c = new Client({ connectionString: url.toString() });
      try {
        await c.connect();
        return 'connected';
      } catch (err) {
        return (err as Error).message;
      } finally {
        await c.end().catch(() => undefined);
      }
    };
    expect(await connectAsGateway()).toMatch(/permission denied for database/);
    // Run as the owner (the superuser made it), the statement lets the roles in and leaves nothing to say.
    await asSuperuser(warning!.replace(/^.*as its owner run: /, ''), closed);
    expect(await connectAsGateway()).toBe('connected');
    const again = await runBootstrap(closed);
    expect({ code: again.code, warned: again.out.includes('bootstrap: warning:') }).toEqual({ code: 0, warned: false });
  });
});
