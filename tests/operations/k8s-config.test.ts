import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { TrustedProxies } from '../../services/gateway/src/domain/client-address';

/** Issue 26: what a real cluster needs from each overlay's configuration. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;
const ROOT = path.resolve(__dirname, '..', '..');

function render(overlay: string): Obj[] {
  const yaml = execFileSync('kubectl', ['kustomize', path.join(ROOT, 'k8s', 'overlays', overlay)], {
    encoding: 'utf8',
  });
  return parseAllDocuments(yaml)
    .map((d) => d.toJS())
    .filter(Boolean);
}

/** Kubernetes quantities in bytes (Ki, Mi, Gi). */
function bytes(q: string): number {
  const m = /^(\d+)(Ki|Mi|Gi)?$/.exec(q);
  if (!m) throw new Error(`quantity ${q}`);
  return Number(m[1]) * { Ki: 1024, Mi: 1024 ** 2, Gi: 1024 ** 3, '': 1 }[m[2] ?? '']!;
}

describe.each(['dev', 'prod'])('the %s overlay configuration', (overlay) => {
  const objects = render(overlay);
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  const configMap = (name: string) => of('ConfigMap').find((c) => c.metadata.name === name).data;

  it('sets PUBLIC_BASE_URL to the Ingress host over https, APP_URL beside it, TRUSTED_PROXIES to a range', () => {
    const host = of('Ingress')[0].spec.rules[0].host;
    const common = configMap('meeting-memory');
    expect(new URL(common.PUBLIC_BASE_URL)).toMatchObject({ protocol: 'https:', host });
    expect(new URL(common.APP_URL)).toMatchObject({ protocol: 'https:', host });
    const proxies = TrustedProxies.parse(configMap('gateway').TRUSTED_PROXIES);
    expect(proxies.empty).toBe(false);
    // A pod range, never everyone.
    expect(proxies.has('203.0.113.7')).toBe(false);
  });

  it('leaves the replica count to the HPA where one scales the Deployment', () => {
    const scaled = new Set(of('HorizontalPodAutoscaler').map((h) => h.spec.scaleTargetRef.name));
    const withReplicas = of('Deployment').filter((d) => scaled.has(d.metadata.name) && d.spec.replicas !== undefined);
    expect(withReplicas.map((d) => d.metadata.name)).toEqual([]);
  });

  it('spreads each Deployment over zones and nodes without blocking scheduling', () => {
    for (const d of of('Deployment')) {
      const spread = d.spec.template.spec.topologySpreadConstraints ?? [];
      const own = spread.filter(
        (c: Obj) =>
          c.labelSelector.matchLabels['app.kubernetes.io/name'] === d.metadata.name &&
          c.whenUnsatisfiable === 'ScheduleAnyway',
      );
      expect({ name: d.metadata.name, keys: own.map((c: Obj) => c.topologyKey).sort() }).toEqual({
        name: d.metadata.name,
        keys: ['kubernetes.io/hostname', 'topology.kubernetes.io/zone'],
      });
    }
  });

  it("sets every count that defaults to the machine's cores to at most the container's CPU limit", () => {
    // os.availableParallelism() sees the node's cores, not the container's CPU limit: on a 16-core
    // node the pipeline would run 16 pocketsphinx decoders (about 100 MiB each) in a 2-CPU, 2 GiB pod.
    const perCore = (service: string) =>
      [
        ...readFileSync(path.join(ROOT, 'services', service, 'src', 'config.ts'), 'utf8').matchAll(
          /r\.num\('(\w+)', availableParallelism\(\)/g,
        ),
      ].map((m) => m[1]);
    const cpus = (q: string) => (q.endsWith('m') ? Number(q.slice(0, -1)) / 1000 : Number(q));
    let checked = 0;
    for (const d of of('Deployment')) {
      const c = d.spec.template.spec.containers[0];
      const env: Record<string, string> = Object.assign(
        {},
        ...(c.envFrom ?? []).filter((f: Obj) => f.configMapRef).map((f: Obj) => configMap(f.configMapRef.name)),
        Object.fromEntries((c.env ?? []).map((e: Obj) => [e.name, e.value])),
      );
      const limit = cpus(String(c.resources.limits.cpu));
      for (const name of perCore(d.metadata.name)) {
        checked += 1;
        expect({
          deployment: d.metadata.name,
          name,
          value: env[name] === undefined ? 'unset' : Number(env[name]) <= limit,
        }).toEqual({ deployment: d.metadata.name, name, value: true });
      }
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it("keeps the pieces of an app upload on one web pod when there are several (they wait in the pod's WEB_UPLOAD_DIR)", () => {
    const web = of('Deployment').find((d) => d.metadata.name === 'web');
    const hpa = of('HorizontalPodAutoscaler').find((h) => h.spec.scaleTargetRef.name === 'web');
    const most = Math.max(web.spec.replicas ?? 1, hpa?.spec.maxReplicas ?? 1);
    const pod = web.spec.template.spec;
    const c = pod.containers[0];
    const dir = { ...configMap('web'), ...Object.fromEntries((c.env ?? []).map((e: Obj) => [e.name, e.value])) }
      .WEB_UPLOAD_DIR as string | undefined;
    // A shared volume at the upload folder (not an emptyDir) needs no affinity.
    const mount = (c.volumeMounts ?? []).find((m: Obj) => dir?.startsWith(m.mountPath));
    const shared = mount && !pod.volumes.find((v: Obj) => v.name === mount.name).emptyDir;
    if (most === 1 || shared) return;
    // Else a browser stays on one gateway pod (cookie affinity over /app) and a gateway pod on one web pod.
    const ingress = of('Ingress')[0];
    const a = ingress.metadata.annotations;
    expect(a['nginx.ingress.kubernetes.io/affinity']).toBe('cookie');
    expect('/app/uploads/x/audio'.startsWith(a['nginx.ingress.kubernetes.io/session-cookie-path'] ?? '/')).toBe(true);
    expect(of('Service').find((x) => x.metadata.name === 'web').spec.sessionAffinity).toBe('ClientIP');
  });

  it('requests ephemeral storage, with a limit above the emptyDir volumes it mounts', () => {
    for (const d of [...of('Deployment'), ...of('Job')]) {
      const pod = d.spec.template.spec;
      const volumes = pod.volumes
        .filter((v: Obj) => v.emptyDir)
        .reduce((sum: number, v: Obj) => sum + bytes(v.emptyDir.sizeLimit), 0);
      const c = pod.containers[0];
      expect(bytes(c.resources.requests['ephemeral-storage'])).toBeGreaterThan(0);
      expect({ name: d.metadata.name, covered: bytes(c.resources.limits['ephemeral-storage']) > volumes }).toEqual({
        name: d.metadata.name,
        covered: true,
      });
    }
  });
});
