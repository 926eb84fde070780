import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { JSONCodec } from 'nats';
import { parseAllDocuments } from 'yaml';
import { authOptions, connectBus, servicePermissions, setupBus } from '@mm/bus';
import { BUS, BUS_SERVICES, BUS_STREAMS, type BusStream } from '@mm/contract';
import { EnvReader, readCommonConfig, readStreamSettings, type StreamSettings } from '@mm/http';
import { jetStreamStorage, natsClusterConfig, natsClusterManifests, natsServers } from '../../deploy/nats-cluster';
import { NATS_CLUSTER_CONF, NATS_CLUSTER_YAML, natsClusterYaml, prodStreamSettings } from '../../deploy/nats-config';
import { credentialFiles } from '../../deploy/nats-credentials';
import { newNatsNkeys, nkeyPublicKey } from '../../libs/bus/src/nkeys';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;

/**
 * Issue 26, "JetStream as production needs it": the NATS cluster of k8s/components/nats-cluster is
 * rendered from the bus table and the streams' settings (replicas, caps), its users prove themselves
 * with nkeys, and it speaks TLS. The renderers are pure; nats-server itself checks what they write,
 * and a broker started with the rendered users and TLS lets a service in with its seed alone.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const NATS_BIN = ['/usr/sbin/nats-server', '/usr/bin/nats-server'].find(existsSync) ?? 'nats-server';
const GIB = 1024 ** 3;

function settings(env: Record<string, string>): StreamSettings {
  const r = new EnvReader(env);
  return r.done('test', { s: readStreamSettings(r) }).s;
}
const capped = (replicas: number) =>
  settings({
    STREAM_REPLICAS: String(replicas),
    STREAM_MAX_BYTES: String(2 * GIB),
    STREAM_MAX_BYTES_RECORDINGS: String(20 * GIB),
  });

describe('the NATS cluster renderer (pure)', () => {
  it('runs as many servers as the streams have replicas, at least three when more than one', () => {
    expect([1, 2, 3, 5].map((n) => natsServers(capped(n)))).toEqual([1, 3, 3, 5]);
    for (const n of [1, 3, 5]) {
      const conf = natsClusterConfig({ streams: capped(n) });
      const routes = [...conf.matchAll(/nats-route:\/\/nats-(\d+)\.nats-headless:6222/g)].map((m) => Number(m[1]));
      expect(routes).toEqual(n === 1 ? [] : Array.from({ length: natsServers(capped(n)) }, (_, i) => i));
      expect(conf.includes('cluster {')).toBe(n > 1);
      const sts = natsClusterManifests({ streams: capped(n) }).find((o) => o.kind === 'StatefulSet')!;
      expect(sts.spec.replicas).toBe(natsServers(capped(n)));
    }
  });

  it("sizes the file store and the volumes from the streams' caps, and refuses uncapped streams", () => {
    // 20 GiB + 2 GiB for each other stream, a tenth more, in whole GiB; the volume 2 GiB more.
    const others = Object.keys(BUS_STREAMS).length - 1;
    const gi = Math.ceil(((20 + 2 * others) * 1.1 * GIB) / GIB);
    expect(jetStreamStorage(capped(3))).toEqual({ maxFileStore: gi * GIB, volumeGi: gi + 2 });
    expect(natsClusterConfig({ streams: capped(3) })).toContain(`max_file_store: ${gi * GIB}`);
    const sts = natsClusterManifests({ streams: capped(3) }).find((o) => o.kind === 'StatefulSet')!;
    expect(sts.spec.volumeClaimTemplates[0].spec.resources.requests.storage).toBe(`${gi + 2}Gi`);
    const open = settings({ STREAM_REPLICAS: '3', STREAM_MAX_BYTES_RECORDINGS: String(GIB) });
    expect(() => jetStreamStorage(open)).toThrow(/STREAM_MAX_BYTES_PIPELINE/);
    expect(() => jetStreamStorage(open)).not.toThrow(/STREAM_MAX_BYTES_RECORDINGS/);
  });

  it('gives every user of the bus table its permissions, proven by an nkey (or a password) from the environment', () => {
    const conf = natsClusterConfig({ streams: capped(3) });
    const users = [...BUS_SERVICES, 'operator'];
    expect([...conf.matchAll(/"nkey": \$NATS_NKEY_([A-Z]+)/g)].map((m) => m[1])).toEqual(
      users.map((u) => u.toUpperCase()),
    );
    expect(conf).not.toMatch(/password/);
    // The permissions are the bus table's, as the single server's nats.conf has them.
    const parsed = JSON.parse(
      conf
        .split('authorization { users: ')[1]
        .replace(/ }\n$/, '')
        .replace(/: \$([A-Z_]+)/g, ': "$$$1"'),
    );
    for (const s of BUS_SERVICES)
      expect(parsed.find((u: Obj) => u.nkey === `$NATS_NKEY_${s.toUpperCase()}`).permissions).toEqual(
        servicePermissions(s),
      );
    expect(parsed.find((u: Obj) => u.nkey === '$NATS_NKEY_OPERATOR').permissions).toBeUndefined();
    expect(natsClusterConfig({ streams: capped(3), auth: 'password' })).toMatch(
      /"user": "series",\n\s+"password": \$NATS_PASSWORD_SERIES/,
    );
  });

  it('speaks TLS to clients and mutual TLS between servers, from the cert-manager Certificate, unless told not to', () => {
    const tls = natsClusterConfig({ streams: capped(3) });
    expect(tls).toMatch(/^tls \{ cert_file: "\/etc\/nats\/tls\/tls.crt"/m);
    expect(tls).toMatch(/cluster \{.*tls \{[^}]*verify: true/);
    const objects = natsClusterManifests({ streams: capped(3), namespace: 'mm' });
    const cert = objects.find((o) => o.kind === 'Certificate')!;
    expect(cert.spec.secretName).toBe('nats-tls');
    expect(cert.spec.dnsNames).toEqual(expect.arrayContaining(['nats', 'nats.mm.svc', '*.nats-headless']));
    expect(natsClusterConfig({ streams: capped(3), tls: false })).not.toMatch(/tls \{/);
    expect(natsClusterManifests({ streams: capped(3), tls: false }).map((o) => o.kind)).not.toContain('Certificate');
  });

  it('writes each user its own seed and the server only public keys', () => {
    const keys = newNatsNkeys();
    const files = credentialFiles(keys);
    expect(Object.keys(files).sort()).toEqual(
      ['nats-users.env', ...[...BUS_SERVICES, 'operator'].map((u) => `${u}.env`)].sort(),
    );
    // A user seed is SU then 56 base32 characters, standing alone (a public key may hold "SU" inside it).
    expect(files['nats-users.env']).not.toMatch(/(?<![A-Z2-7])SU[A-Z2-7]{56}(?![A-Z2-7])/);
    for (const k of Object.values(keys)) expect(files['nats-users.env']).not.toContain(k.seed);
    for (const [user, k] of Object.entries(keys)) {
      expect(nkeyPublicKey(k.seed)).toBe(k.publicKey);
      expect(files['nats-users.env']).toContain(`NATS_NKEY_${user.toUpperCase()}=${k.publicKey}\n`);
      const own = files[`${user}.env`];
      expect(own).toBe(user === 'operator' ? `NATS_SETUP_NKEY_SEED=${k.seed}\n` : `NATS_NKEY_SEED=${k.seed}\n`);
      for (const [other, o] of Object.entries(keys)) if (other !== user) expect(own).not.toContain(o.seed);
    }
    expect(new Set(Object.values(keys).map((k) => k.seed)).size).toBe(Object.keys(keys).length);
  });

  it("reads a seed, a credentials file and TLS files from the service's environment", () => {
    const seed = newNatsNkeys().series.seed;
    const production = {
      NODE_ENV: 'production',
      INTERNAL_JWT_SECRET: 'x'.repeat(64),
      DATABASE_URL: 'postgres://a@b/c',
    };
    const c = readCommonConfig(
      new EnvReader({ ...production, NATS_NKEY_SEED: seed, NATS_TLS_CA_FILE: '/ca.crt' }),
      'series',
    );
    expect([c.natsNkeySeed, c.natsPassword, c.natsTls]).toEqual([
      seed,
      null,
      { caFile: '/ca.crt', certFile: undefined, keyFile: undefined },
    ]);
    expect(authOptions({ nkeySeed: seed, user: 'series', pass: 'x' })).toEqual({ authenticator: expect.any(Function) });
    const refuse = (env: Record<string, string>) => () => {
      const r = new EnvReader({ ...production, ...env });
      r.done('series', readCommonConfig(r, 'series'));
    };
    expect(refuse({})).toThrow(
      /NATS_PASSWORD \(or NATS_PASSWORD_SERIES\) must be set .*NATS_NKEY_SEED, or NATS_CREDS_FILE/,
    );
    expect(refuse({ NATS_NKEY_SEED: 'SAnotauserseed' })).toThrow(/NATS_NKEY_SEED must be a user nkey seed/);
    expect(refuse({ NATS_PASSWORD: 'p'.repeat(40), NATS_TLS_CERT_FILE: '/c.crt' })).toThrow(
      /NATS_TLS_CERT_FILE and NATS_TLS_KEY_FILE go together/,
    );
  });
});

describe('k8s/components/nats-cluster', () => {
  it("is what the renderer makes of the prod overlay's STREAM_* settings", () => {
    const streams = prodStreamSettings();
    expect(streams.replicas).toBe(3);
    expect(readFileSync(NATS_CLUSTER_YAML, 'utf8')).toBe(natsClusterYaml(streams));
    expect(readFileSync(NATS_CLUSTER_CONF, 'utf8')).toBe(natsClusterConfig({ streams }));
  });

  it("renders into the prod overlay: three servers, the config by hashed name, the streams' replicas", () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'mm-natsk-'));
    try {
      const k8s = path.relative(dir, path.join(ROOT, 'k8s'));
      writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        JSON.stringify({
          namespace: 'meeting-memory',
          resources: [`${k8s}/overlays/prod`],
          components: [`${k8s}/components/nats-cluster`],
        }),
      );
      const objects: Obj[] = parseAllDocuments(
        execFileSync('kubectl', ['kustomize', '--load-restrictor', 'LoadRestrictionsNone', dir], { encoding: 'utf8' }),
      )
        .map((d) => d.toJS())
        .filter(Boolean);
      const sts = objects.find((o) => o.kind === 'StatefulSet' && o.metadata.name === 'nats');
      const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name.startsWith('nats-config-'));
      expect(sts.metadata.namespace).toBe('meeting-memory');
      expect(sts.spec.replicas).toBe(
        objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'meeting-memory').data.STREAM_REPLICAS * 1,
      );
      expect(sts.spec.template.spec.volumes.find((v: Obj) => v.name === 'config').configMap.name).toBe(
        config.metadata.name,
      );
      expect(config.data['nats.conf']).toBe(readFileSync(NATS_CLUSTER_CONF, 'utf8'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** A free TCP port on loopback. */
function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** A CA and a certificate for 127.0.0.1 and the component's names, made with openssl. */
function makeTls(dir: string): void {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  ssl(
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
    '-days',
    '1',
    '-subj',
    '/CN=mm-test-ca',
  );
  ssl(
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    'tls.key',
    '-out',
    'tls.csr',
    '-subj',
    '/CN=nats',
  );
  writeFileSync(
    path.join(dir, 'ext.cnf'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost,DNS:nats,DNS:*.nats-headless\nextendedKeyUsage=serverAuth,clientAuth\n',
  );
  ssl(
    'x509',
    '-req',
    '-in',
    'tls.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'tls.crt',
    '-days',
    '1',
    '-extfile',
    'ext.cnf',
  );
}

describe('a broker with the rendered nkey users and TLS', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-natsnk-'));
  const keys = newNatsNkeys();
  const serverEnv = {
    PATH: process.env.PATH,
    POD_NAME: 'nats-0',
    ...Object.fromEntries(Object.entries(keys).map(([u, k]) => [`NATS_NKEY_${u.toUpperCase()}`, k.publicKey])),
  };
  let server: ChildProcess | null = null;
  let url = '';
  const tls = { caFile: path.join(dir, 'ca.crt') };

  /** The rendered configuration with this run's directories for the store and the certificates. */
  const localConf = (streams: StreamSettings) =>
    natsClusterConfig({ streams }).replaceAll('/etc/nats/tls', dir).replace('/data/jetstream', path.join(dir, 'js'));

  beforeAll(async () => {
    makeTls(dir);
    const conf = path.join(dir, 'nats.conf');
    // The committed three-server configuration is valid to nats-server (routes, mutual TLS, nkeys from the environment)...
    writeFileSync(
      conf,
      readFileSync(NATS_CLUSTER_CONF, 'utf8')
        .replaceAll('/etc/nats/tls', dir)
        .replace('/data/jetstream', path.join(dir, 'js')),
    );
    const check = spawnSync(NATS_BIN, ['-c', conf, '-t'], { env: serverEnv, encoding: 'utf8' });
    expect(`${check.stdout}${check.stderr}`).toMatch(/is valid/);
    const missing = spawnSync(NATS_BIN, ['-c', conf, '-t'], {
      env: { ...serverEnv, NATS_NKEY_SERIES: 'not-a-key' },
      encoding: 'utf8',
    });
    expect(`${missing.stdout}${missing.stderr}`).toMatch(/nkey/i);
    // ...and one server of it (single-replica streams) runs here.
    writeFileSync(conf, localConf(capped(1)));
    const [port, monitor] = [await freePort(), await freePort()];
    url = `tls://127.0.0.1:${port}`;
    server = spawn(NATS_BIN, ['-c', conf, '-a', '127.0.0.1', '-p', String(port), '-m', String(monitor)], {
      env: serverEnv,
      stdio: 'ignore',
    });
    for (let i = 0; i < 50; i++) {
      if (
        await setupBus(url, '', { nkeySeed: keys.operator.seed, tls }, capped(1)).then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 200));
    }
    throw new Error('the broker did not start');
  }, 30_000);

  afterAll(() => {
    server?.kill('SIGTERM');
    rmSync(dir, { recursive: true, force: true });
  });

  it("lets a service in with its seed over TLS, within the table's permissions, and no one without", async () => {
    const bus = await connectBus(url, 'series', '', {
      user: 'series',
      nkeySeed: keys.series.seed,
      tls,
      streamWaitMs: 5000,
    });
    try {
      const ask = (subject: string) =>
        bus.nc.request(subject, JSONCodec().encode({}), { timeout: 1000 }).then(
          () => 'answered',
          (e: unknown) => String(e),
        );
      // What the table gives series is allowed (nobody serves it here: no responders); another's subject is refused.
      expect(await ask(BUS.seriesStats.subject)).toMatch(/503|no responders/i);
      expect(await ask(BUS.askMeeting.subject)).toMatch(/Permissions Violation/);
    } finally {
      await bus.close();
    }
    // The streams the operator's seed made, seen by a service that reads one.
    const events = await connectBus(url, 'events', '', {
      user: 'events',
      nkeySeed: keys.events.seed,
      tls,
      streamWaitMs: 5000,
    });
    try {
      expect((await events.jsm.streams.info('RECORDINGS' as BusStream)).config).toEqual(
        expect.objectContaining({ num_replicas: 1, max_bytes: 20 * GIB }),
      );
    } finally {
      await events.close();
    }
    // Another user's seed the server does not know, a password, or no TLS: no connection.
    const stranger = newNatsNkeys().series.seed;
    await expect(
      connectBus(url, 'series', '', { user: 'series', nkeySeed: stranger, tls, streamWaitMs: 1000 }),
    ).rejects.toThrow(/Authorization/i);
    await expect(
      connectBus(url, 'series', '', { user: 'series', pass: 'guess', tls, streamWaitMs: 1000 }),
    ).rejects.toThrow(/Authorization/i);
    await expect(
      connectBus(url, 'series', '', { user: 'series', nkeySeed: keys.series.seed, streamWaitMs: 1000 }),
    ).rejects.toThrow();
  }, 30_000);
});
