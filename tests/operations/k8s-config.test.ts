import { execFileSync } from 'node:child_process';
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
