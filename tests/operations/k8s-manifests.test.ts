import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const SERVICES = ['gateway', 'account', 'recordings', 'pipeline', 'series', 'ask', 'events', 'web'];
/** Scaled by CPU with an HPA; the pipeline is scaled on its queue depth (KEDA, docs/operations.md). */
const HPA_SERVICES = SERVICES.filter((s) => s !== 'pipeline');
const SECRET_NAME = /SECRET|PASSWORD|TOKEN|_KEY$|KEY_ID$|DATABASE_URL|REDIS_URL|NATS_URL|SMTP_URL/;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;

/** `kubectl kustomize` (kustomize v5 built into kubectl) renders an overlay. */
function render(overlay: string): { yaml: string; objects: Obj[] } {
  const yaml = execFileSync('kubectl', ['kustomize', path.join(ROOT, 'k8s', 'overlays', overlay)], {
    encoding: 'utf8',
  });
  return {
    yaml,
    objects: parseAllDocuments(yaml)
      .map((d) => d.toJS())
      .filter(Boolean),
  };
}

const matches = (selector: Obj, labels: Record<string, string>) =>
  Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);

describe.each(['dev', 'prod'])('the %s overlay', (overlay) => {
  const { yaml, objects } = render(overlay);
  const of = (kind: string) => objects.filter((o) => o.kind === kind);
  const named = (kind: string, name: string) => of(kind).find((o) => o.metadata.name === name);
  const deployments = of('Deployment');

  it('validates every object against the Kubernetes schemas (kubernetes-models)', () => {
    const out = execFileSync('node', [path.join(__dirname, 'k8s-validate.mjs')], {
      input: yaml,
      encoding: 'utf8',
      cwd: path.join(ROOT, 'tests'),
    });
    expect(JSON.parse(out)).toEqual([]);
    expect(objects.length).toBeGreaterThan(40);
  });

  it('makes the namespace every object is put in, with Pod Security admission on', () => {
    const namespaces = of('Namespace');
    expect(namespaces).toHaveLength(1);
    const ns = namespaces[0].metadata;
    expect(new Set(objects.filter((o) => o.kind !== 'Namespace').map((o) => o.metadata.namespace))).toEqual(
      new Set([ns.name]),
    );
    expect(ns.labels).toMatchObject({
      'pod-security.kubernetes.io/enforce': 'baseline',
      'pod-security.kubernetes.io/warn': 'restricted',
    });
  });

  it('lets uploads in flight finish when a pod stops: drain time within the grace period', () => {
    const common = named('ConfigMap', 'meeting-memory').data;
    for (const s of ['gateway', 'recordings', 'web']) {
      const drain = Number(named('ConfigMap', s).data.SHUTDOWN_DRAIN_SECONDS);
      expect({ s, drain }).toEqual({ s, drain: 300 });
      const grace = named('Deployment', s).spec.template.spec.terminationGracePeriodSeconds;
      expect(grace).toBeGreaterThan(Number(common.SHUTDOWN_DELAY_SECONDS) + drain);
    }
    expect(common.SMTP_FROM).toMatch(/<no-reply@[a-z0-9.-]+\.[a-z]+>$/);
  });

  it('has a Deployment, Service, ServiceAccount and ConfigMap per service, each Deployment with its own image', () => {
    expect(deployments.map((d) => d.metadata.name).sort()).toEqual([...SERVICES].sort());
    for (const s of SERVICES) {
      expect(named('Service', s)).toBeDefined();
      expect(named('ServiceAccount', s)).toBeDefined();
      expect(named('ConfigMap', s)).toBeDefined();
      const spec = named('Deployment', s).spec.template.spec;
      expect(spec.serviceAccountName).toBe(s);
      expect(spec.containers[0].image).toMatch(new RegExp(`/${s}:[\\w.-]+$`));
    }
  });

  it('gives every container requests, limits, three probes and a locked-down securityContext', () => {
    for (const d of [...deployments, ...of('Job')]) {
      const pod = d.spec.template.spec;
      expect({ name: d.metadata.name, runAsNonRoot: pod.securityContext?.runAsNonRoot }).toEqual({
        name: d.metadata.name,
        runAsNonRoot: true,
      });
      for (const c of pod.containers) {
        for (const k of ['requests', 'limits'])
          expect(Object.keys(c.resources?.[k] ?? {}).sort()).toEqual(['cpu', 'ephemeral-storage', 'memory']);
        expect(c.securityContext).toMatchObject({
          runAsNonRoot: true,
          readOnlyRootFilesystem: true,
          allowPrivilegeEscalation: false,
          capabilities: { drop: ['ALL'] },
        });
        if (d.kind === 'Deployment')
          for (const p of ['startupProbe', 'livenessProbe', 'readinessProbe'])
            expect(c[p]?.httpGet?.path).toMatch(/^\/(healthz|readyz)$/);
      }
    }
  });

  it('covers every pod with a NetworkPolicy behind a default deny; only the gateway takes traffic from outside', () => {
    const policies = of('NetworkPolicy');
    const deny = policies.find(
      (p) =>
        Object.keys(p.spec.podSelector).length === 0 || Object.keys(p.spec.podSelector.matchLabels ?? {}).length === 0,
    );
    expect(deny?.spec.policyTypes.sort()).toEqual(['Egress', 'Ingress']);
    expect(deny?.spec.ingress ?? []).toEqual([]);
    expect(deny?.spec.egress ?? []).toEqual([]);
    for (const d of [...deployments, ...of('Job')]) {
      const labels = d.spec.template.metadata.labels;
      const own = policies.filter((p) => p !== deny && matches(p.spec.podSelector, labels));
      expect({ pod: d.metadata.name, policies: own.length }).toEqual({ pod: d.metadata.name, policies: 1 });
      const sources = (own[0].spec.ingress ?? []).flatMap((r: Obj) => r.from ?? [{ anywhere: true }]);
      expect(sources.some((f: Obj) => f.anywhere || f.ipBlock)).toBe(false);
      const fromOutside = sources.filter(
        (f: Obj) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'ingress-nginx',
      );
      expect({ pod: d.metadata.name, outside: fromOutside.length > 0 }).toEqual({
        pod: d.metadata.name,
        outside: d.metadata.name === 'gateway',
      });
      // Inside the namespace, only the gateway reaches a service; and the app (services/web), with
      // the principal the gateway gave it, reaches the services whose data its pages show.
      const peers = sources
        .filter((f: Obj) => f.podSelector && !f.namespaceSelector)
        .map((f: Obj) => f.podSelector.matchLabels['app.kubernetes.io/name']);
      const allowed =
        d.metadata.name === 'web'
          ? ['gateway']
          : ['account', 'recordings', 'series', 'ask', 'events', 'gateway'].includes(d.metadata.name)
            ? ['gateway', 'web']
            : ['gateway'];
      expect({ pod: d.metadata.name, peers: peers.filter((p: string) => !allowed.includes(p)) }).toEqual({
        pod: d.metadata.name,
        peers: [],
      });
    }
  });

  it('writes no secret value: no Secret object, secrets only through secretRef', () => {
    expect(of('Secret')).toEqual([]);
    for (const cm of of('ConfigMap'))
      for (const k of Object.keys(cm.data ?? {}))
        expect({ cm: cm.metadata.name, k, secret: SECRET_NAME.test(k) }).toMatchObject({ secret: false });
    for (const d of [...deployments, ...of('Job')]) {
      for (const c of d.spec.template.spec.containers) {
        for (const e of c.env ?? []) if (SECRET_NAME.test(e.name)) expect(e.value).toBeUndefined();
        expect((c.envFrom ?? []).some((f: Obj) => f.secretRef?.name)).toBe(true);
      }
    }
  });

  it("runs the bus setup step as the NATS operator in a Job of the gateway's image; no service holds that password", () => {
    const job = named('Job', 'bus-setup');
    const c = job.spec.template.spec.containers[0];
    expect(c.image).toBe(named('Deployment', 'gateway').spec.template.spec.containers[0].image);
    expect(c.command).toEqual(['node', 'src/main.js', 'bus-setup']);
    expect(c.env ?? []).toEqual([]);
    expect((c.envFrom ?? []).filter((f: Obj) => f.secretRef).map((f: Obj) => f.secretRef.name)).toEqual([
      'bus-setup-secrets',
    ]);
    for (const d of deployments)
      expect({
        name: d.metadata.name,
        operator: JSON.stringify(d.spec.template.spec).match(
          /NATS_SETUP_PASSWORD|NATS_PASSWORD_OPERATOR|bus-setup-secrets/g,
        ),
      }).toEqual({ name: d.metadata.name, operator: null });
  });

  it('orders a first Argo CD sync: each setup Job is a Sync hook after what it reads, before the services', () => {
    const wave = (o: Obj) => Number(o.metadata.annotations?.['argocd.argoproj.io/sync-wave'] ?? 0);
    const jobs = of('Job');
    expect(jobs.map((j) => j.metadata.name).sort()).toEqual(['bus-setup', 'postgres-bootstrap']);
    const namespace = of('Namespace')[0];
    for (const job of jobs) {
      // A PreSync hook runs before any resource of the sync exists: on a first install it never started.
      expect(job.metadata.annotations['argocd.argoproj.io/hook']).toBe('Sync');
      const pod = job.spec.template.spec;
      const configMaps = [
        ...(pod.volumes ?? []).map((v: Obj) => v.configMap?.name),
        ...pod.containers.flatMap((c: Obj) => (c.envFrom ?? []).map((e: Obj) => e.configMapRef?.name)),
      ].filter(Boolean);
      const policies = of('NetworkPolicy').filter(
        (p) => p.metadata.name !== 'default-deny' && matches(p.spec.podSelector, job.spec.template.metadata.labels),
      );
      expect(policies).toHaveLength(1);
      const before = [...configMaps.map((name: string) => named('ConfigMap', name)), ...policies];
      for (const o of before) {
        expect({ name: o.metadata.name, earlier: wave(o) < wave(job) }).toEqual({
          name: o.metadata.name,
          earlier: true,
        });
        expect(wave(namespace)).toBeLessThan(wave(o));
      }
      for (const d of deployments) expect(wave(d)).toBeGreaterThan(wave(job));
    }
  });

  it('has a PodDisruptionBudget per service and an HPA per stateless service', () => {
    for (const s of SERVICES)
      expect(
        of('PodDisruptionBudget').filter((p) => matches(p.spec.selector, { 'app.kubernetes.io/name': s })),
      ).toHaveLength(1);
    expect(
      of('HorizontalPodAutoscaler')
        .map((h) => h.spec.scaleTargetRef.name)
        .sort(),
    ).toEqual([...HPA_SERVICES].sort());
    for (const h of of('HorizontalPodAutoscaler')) expect(h.spec.maxReplicas).toBeGreaterThan(h.spec.minReplicas);
  });

  it('routes outside traffic to the gateway alone through an Ingress sized for 500 MB uploads', () => {
    const ingresses = of('Ingress');
    expect(ingresses).toHaveLength(1);
    const backends = ingresses[0].spec.rules.flatMap((r: Obj) => r.http.paths.map((p: Obj) => p.backend.service.name));
    expect(new Set(backends)).toEqual(new Set(['gateway']));
    const size = ingresses[0].metadata.annotations['nginx.ingress.kubernetes.io/proxy-body-size'] as string;
    expect(Number(size.replace(/m$/, ''))).toBeGreaterThanOrEqual(500);
    expect(ingresses[0].metadata.annotations['nginx.ingress.kubernetes.io/proxy-request-buffering']).toBe('off');
    expect(of('Service').every((s) => (s.spec.type ?? 'ClusterIP') === 'ClusterIP')).toBe(true);
  });
});

describe('the prod overlay', () => {
  const { objects } = render('prod');
  it('gives each service its own version label and image tag', () => {
    for (const d of objects.filter((o) => o.kind === 'Deployment')) {
      const version = d.spec.template.metadata.labels['app.kubernetes.io/version'];
      expect(version).toMatch(/^\d+\.\d+\.\d+$/);
      expect(d.spec.template.spec.containers[0].image.endsWith(`:${version}`)).toBe(true);
    }
  });
});
