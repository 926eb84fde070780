import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, parseAllDocuments } from 'yaml';

/**
 * Issue 25 item 11: compose hands each container only the secrets it uses, and each service
 * connects to Postgres as its own role. "Uses" is read from the code: the variables its
 * configuration reads (its config.ts, the shared config, the audio store's for those that read it).
 */
const ROOT = path.resolve(__dirname, '..', '..');
const SERVICES = ['gateway', 'account', 'recordings', 'pipeline', 'series', 'ask', 'events'];
const SECRET = /SECRET|PASSWORD|TOKEN|_KEY$|KEY_ID$|DATABASE_URL|REDIS_URL|SMTP_URL|MINIO_ROOT/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const compose: any = parse(readFileSync(path.join(ROOT, 'deploy', 'compose.yaml'), 'utf8'), { merge: true });

const namesIn = (file: string) =>
  new Set([...readFileSync(path.join(ROOT, file), 'utf8').matchAll(/'([A-Z][A-Z0-9_]+)'/g)].map((m) => m[1]));

/** Every variable a service's configuration reads (its config.ts and the `*.config.ts` beside it). */
function readBy(service: string): Set<string> {
  const src = path.join('services', service, 'src');
  const own = path.join(src, 'config.ts');
  const files = [
    ...readdirSync(path.join(ROOT, src))
      .filter((f) => f === 'config.ts' || f.endsWith('.config.ts'))
      .map((f) => path.join(src, f)),
    'libs/platform/src/config.ts',
  ];
  if (readFileSync(path.join(ROOT, own), 'utf8').includes('readStoreConfig'))
    files.push('libs/store/src/store-config.ts');
  // The shared config reads NATS_PASSWORD and `${s.toUpperCase()}_PORT` style names: NATS_PASSWORD is named literally.
  return new Set(files.flatMap((f) => [...namesIn(f)]));
}

describe('deploy/compose.yaml', () => {
  it.each(SERVICES)('hands %s only the secrets its code reads, and no env_file', (service) => {
    const s = compose.services[service];
    expect(s.env_file).toBeUndefined();
    const secrets = Object.keys(s.environment).filter((k) => SECRET.test(k));
    const reads = readBy(service);
    expect(secrets.filter((k) => !reads.has(k))).toEqual([]);
  });

  it.each(SERVICES)('connects %s to Postgres as its own role, made by db-bootstrap before it starts', (service) => {
    const s = compose.services[service];
    expect(new URL(s.environment.DATABASE_URL.replace(/\$\{[^}]+\}/g, 'x')).username).toBe(`mm_${service}`);
    expect(s.depends_on['db-bootstrap']).toEqual({ condition: 'service_completed_successfully' });
    expect(s.command.join(' ')).toMatch(/node src\/main\.js migrate && exec node src\/main\.js/);
  });

  it('keeps the superuser password and the root keys to the containers that need them', () => {
    const holders = (name: string) =>
      Object.keys(compose.services)
        .filter((c) => Object.keys(compose.services[c].environment ?? {}).includes(name))
        .sort();
    expect(holders('POSTGRES_PASSWORD')).toEqual(['postgres']);
    expect(holders('PGPASSWORD')).toEqual(['db-bootstrap']);
    expect(holders('MINIO_ROOT_PASSWORD')).toEqual(['minio', 'minio-bucket']);
    expect(holders('NATS_PASSWORD_OPERATOR')).toEqual(['nats']);
    expect(holders('TOKEN_HASH_KEY')).toEqual(['gateway']);
    expect(holders('S3_SECRET_ACCESS_KEY')).toEqual(['minio-bucket', 'pipeline', 'recordings']);
    for (const c of Object.values(compose.services) as { env_file?: unknown }[]) expect(c.env_file).toBeUndefined();
  });

  it("makes the NATS streams first in a one-shot bus-setup, the only container with the operator's password", () => {
    const holders = (name: string) =>
      Object.keys(compose.services)
        .filter((c) => Object.keys(compose.services[c].environment ?? {}).includes(name))
        .sort();
    const setup = compose.services['bus-setup'];
    // The gateway's image runs the step (services/gateway/src/main.ts: `bus-setup`, libs/bus/src/setup-step.ts).
    expect(setup.build.target).toBe('gateway');
    expect(setup.command).toEqual(['node', 'src/main.js', 'bus-setup']);
    expect(readFileSync(path.join(ROOT, 'services', 'gateway', 'src', 'main.ts'), 'utf8')).toMatch(
      /isBusSetupCommand\(\)\) runBusSetup\(\)/,
    );
    expect(setup.environment.NATS_SETUP_PASSWORD).toMatch(/^\$\{NATS_PASSWORD_OPERATOR:\?/);
    expect(Object.keys(setup.environment).filter((k) => SECRET.test(k))).toEqual(['NATS_SETUP_PASSWORD']);
    expect(holders('NATS_SETUP_PASSWORD')).toEqual(['bus-setup']);
    for (const service of SERVICES)
      expect({ service, after: compose.services[service].depends_on['bus-setup'] }).toEqual({
        service,
        after: { condition: 'service_completed_successfully' },
      });
  });

  it('hands SMTP_URL to every service whose configuration reads it (the gateway: invites and resets; account: summaries)', () => {
    const readers = SERVICES.filter((service) => readBy(service).has('SMTP_URL'));
    expect(readers).toEqual(expect.arrayContaining(['gateway', 'account']));
    for (const service of readers)
      expect({ service, smtp: compose.services[service].environment.SMTP_URL }).toEqual({
        service,
        smtp: expect.stringMatching(/^\$\{SMTP_URL:-/),
      });
  });

  it.each([...SERVICES, 'web'])(
    'gives %s, read-only, a writable place at every path its Kubernetes pod mounts an emptyDir',
    (service) => {
      const deployment = parseAllDocuments(
        readFileSync(path.join(ROOT, 'k8s', 'base', 'services', `${service}.yaml`), 'utf8'),
      )
        .map((d) => d.toJS())
        .find((o) => o?.kind === 'Deployment');
      const pod = deployment.spec.template.spec;
      const scratch = new Set(
        pod.volumes.filter((v: { emptyDir?: object }) => v.emptyDir).map((v: { name: string }) => v.name),
      );
      const paths = pod.containers[0].volumeMounts
        .filter((m: { name: string }) => scratch.has(m.name))
        .map((m: { mountPath: string }) => m.mountPath);
      // /tmp: the pipeline decodes a meeting there (os.tmpdir()), the app keeps upload pieces there.
      expect(paths).toContain('/tmp');
      const s = compose.services[service];
      expect(s.read_only).toBe(true);
      const writable = [...(s.tmpfs ?? []), ...(s.volumes ?? []).map((v: string) => v.split(':')[1])];
      expect({ service, missing: paths.filter((p: string) => !writable.includes(p)) }).toEqual({
        service,
        missing: [],
      });
    },
  );

  it('runs the same bootstrap script as the Kubernetes Job', () => {
    expect(compose.services['db-bootstrap'].volumes).toContain('../k8s/base/postgres/bootstrap.sh:/bootstrap.sh:ro');
  });
});
