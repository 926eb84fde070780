import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { APP_ONLY_ROUTES, ROUTES, forwardOf, serviceOf } from '@mm/contract';
import { SERVICE_PORTS } from '../../libs/platform/src/config';
import { allowedPaths, path as p, type Node } from './network-model';

/**
 * Issue 26: the rendered overlays' NetworkPolicies allow exactly the paths the code needs: each
 * service's HTTP callers, its Postgres, NATS, Redis, S3, SMTP and engine use (read from its code),
 * Prometheus on each metrics port, the ingress controller to the gateway, DNS for every pod.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;
const ROOT = path.resolve(__dirname, '..', '..');
const NAME = 'app.kubernetes.io/name';

/** Dependencies that run in the namespace, per overlay (the charts' name labels; docs/operations.md). */
const IN_CLUSTER: Record<string, Record<string, { label: string; port: number }>> = {
  dev: {
    postgres: { label: 'postgresql', port: 5432 },
    nats: { label: 'nats', port: 4222 },
    redis: { label: 'redis', port: 6379 },
    s3: { label: 'minio', port: 9000 },
  },
  prod: {},
};

function render(overlay: string): Obj[] {
  const yaml = execFileSync('kubectl', ['kustomize', path.join(ROOT, 'k8s', 'overlays', overlay)], {
    encoding: 'utf8',
  });
  return parseAllDocuments(yaml)
    .map((d) => d.toJS())
    .filter(Boolean);
}

const source = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
/** Every TypeScript file (.ts, .tsx) of a service's src, read together. */
const serviceCode = (service: string) =>
  readdirSync(path.join(ROOT, 'services', service, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => source(path.join('services', service, 'src', f)))
    .join('\n');

/** A service's configuration code: its config.ts and the `*.config.ts` beside it (the gateway's sign-in settings). */
const configCode = (service: string) =>
  readdirSync(path.join(ROOT, 'services', service, 'src'))
    .filter((f) => f === 'config.ts' || f.endsWith('.config.ts'))
    .map((f) => source(path.join('services', service, 'src', f)))
    .join('\n');

/** What each service's code reaches and listens on. */
function uses(service: string) {
  const main = source(`services/${service}/src/main.ts`);
  const config = configCode(service);
  const ops = /'OPS_PORT', (\d+)/.exec(config);
  return {
    postgres: /openDatabase[<(]/.test(main),
    nats: main.includes('connectServiceBus('),
    redis: config.includes("'REDIS_URL'"),
    s3: config.includes('readStoreConfig('),
    smtp: config.includes("'SMTP_URL'"),
    engine: config.includes("'OPENAI_BASE_URL'"),
    port: SERVICE_PORTS[service as keyof typeof SERVICE_PORTS],
    metricsPort: ops ? Number(ops[1]) : SERVICE_PORTS[service as keyof typeof SERVICE_PORTS],
  };
}

/** Services the gateway calls over HTTP: the route table's owners and the ones its code names. */
function gatewayCallees(): Set<string> {
  const named = [...serviceCode('gateway').matchAll(/serviceUrls\.(\w+)/g)].map((m) => m[1]);
  return new Set([
    ...ROUTES.map((r) => r.service),
    ...APP_ONLY_ROUTES.map((r: Obj) => r.service).filter(Boolean),
    ...named,
  ]);
}

/**
 * Services the app (services/web) calls over HTTP: every `backend.operation('<operationId>', ...)`
 * and `backend.stream('<operationId>', ...)` of its code, and its upload (`adminSubmitRecording`),
 * each at the service that answers it (the table's `forward` service for a forwarded admin
 * operation, else its owner), the gateway included (/internal/app). Its one client,
 * services/web/src/services/backend.client.ts, calls nothing but operations (tests/contract/mounted-by-operation).
 */
function webCallees(): Set<string> {
  const code = serviceCode('web');
  const answeredBy = (id: string) => forwardOf(id)?.service ?? serviceOf(id);
  const called = [
    ...[...code.matchAll(/\.(?:operation|stream)(?:<[^']*?>)?\(\s*'(\w+)'/g)].map((m) => answeredBy(m[1])),
    ...(/\.upload\(/.test(code) ? [answeredBy('adminSubmitRecording')] : []),
  ];
  expect(called.length).toBeGreaterThan(0);
  for (const c of called) expect({ callee: c, known: c in SERVICE_PORTS }).toEqual({ callee: c, known: true });
  return new Set(called);
}

function nodesOf(objects: Obj[], overlay: string, namespace: string): Node[] {
  const pods = objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((o) => ({
      name: o.metadata.name,
      namespace,
      labels: o.spec.template.metadata.labels,
      ports: o.spec.template.spec.containers.flatMap((c: Obj) => (c.ports ?? []).map((q: Obj) => q.containerPort)),
      inNamespace: true,
    }));
  const deps = Object.values(IN_CLUSTER[overlay]).map((d) => ({
    name: d.label,
    namespace,
    labels: { [NAME]: d.label },
    ports: [d.port],
    inNamespace: true,
    dependency: true,
  }));
  return [
    ...pods,
    ...deps,
    { name: 'ingress-nginx', namespace: 'ingress-nginx', labels: {}, ports: [], inNamespace: false },
    { name: 'prometheus', namespace: 'monitoring', labels: {}, ports: [], inNamespace: false },
    { name: 'kube-dns', namespace: 'kube-system', labels: { 'k8s-app': 'kube-dns' }, ports: [53], inNamespace: false },
    { name: 'node-local-dns', namespace: 'kube-system', labels: {}, ports: [53], inNamespace: false },
    { name: 'outside', namespace: '', labels: {}, ports: 'any', inNamespace: false },
  ];
}

/** The paths the code needs in an overlay. */
function neededPaths(objects: Obj[], overlay: string): Set<string> {
  const deps = IN_CLUSTER[overlay];
  const at = (dep: string, port: number) => (deps[dep] ? `${deps[dep].label}:${deps[dep].port}` : `outside:${port}`);
  const config = objects.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'meeting-memory').data;
  // S3: the endpoint the configuration names (MinIO in dev), else AWS S3 over HTTPS.
  const s3Port = config.S3_ENDPOINT ? Number(new URL(config.S3_ENDPOINT).port || 443) : 443;
  if (deps.s3) expect(s3Port).toBe(deps.s3.port);
  const out = new Set<string>();
  const need = (from: string, to: string) => out.add(`${from} -> ${to}`);
  const callees = gatewayCallees();
  for (const d of objects.filter((o) => o.kind === 'Deployment')) {
    const name = d.metadata.name as string;
    const u = uses(name);
    need(name, 'kube-dns:53');
    need(name, 'node-local-dns:53');
    if (u.postgres) need(name, at('postgres', 5432));
    if (u.nats) need(name, at('nats', 4222));
    if (u.redis) need(name, at('redis', 6379));
    if (u.s3) need(name, at('s3', s3Port));
    if (u.smtp) for (const port of [587, 465]) need(name, `outside:${port}`);
    if (u.engine) need(name, 'outside:443');
    // Prometheus scrapes the port the pod's annotation names, which must be the code's metrics port.
    expect({ name, scraped: Number(d.spec.template.metadata.annotations['prometheus.io/port']) }).toEqual({
      name,
      scraped: u.metricsPort,
    });
    need('prometheus', `${name}:${u.metricsPort}`);
    if (name === 'gateway') {
      need('ingress-nginx', `gateway:${u.port}`);
      for (const callee of callees) need('gateway', `${callee}:${SERVICE_PORTS[callee as keyof typeof SERVICE_PORTS]}`);
    }
    if (name === 'web')
      for (const callee of webCallees())
        need('web', `${callee}:${SERVICE_PORTS[callee as keyof typeof SERVICE_PORTS]}`);
  }
  for (const j of objects.filter((o) => o.kind === 'Job')) {
    need(j.metadata.name, 'kube-dns:53');
    need(j.metadata.name, 'node-local-dns:53');
    if (j.metadata.name === 'postgres-bootstrap') need(j.metadata.name, at('postgres', 5432));
    // The bus setup step (node src/main.js bus-setup: libs/bus/src/setup-step.ts) reaches NATS alone.
    if (j.metadata.name === 'bus-setup') need(j.metadata.name, at('nats', 4222));
  }
  return out;
}

function compare(objects: Obj[], overlay: string): { missing: string[]; extra: string[] } {
  const namespace = objects.find((o) => o.kind === 'Deployment').metadata.namespace;
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const allowed = allowedPaths(policies, nodesOf(objects, overlay, namespace), namespace);
  const needed = neededPaths(objects, overlay);
  return {
    missing: [...needed].filter((x) => !allowed.has(x)).sort(),
    extra: [...allowed].filter((x) => !needed.has(x)).sort(),
  };
}

describe.each(['dev', 'prod'])('the %s overlay network', (overlay) => {
  const objects = render(overlay);

  it('allows exactly the paths the code needs: none missing, none extra', () => {
    expect(compare(objects, overlay)).toEqual({ missing: [], extra: [] });
  });

  it('finds a removed port (a missing path) and an added one (an extra path)', () => {
    const policy = (o: Obj[], name: string) => o.find((x) => x.kind === 'NetworkPolicy' && x.metadata.name === name);
    const cut = structuredClone(objects);
    const gateway = policy(cut, 'gateway');
    gateway.spec.ingress = gateway.spec.ingress.filter(
      (r: Obj) =>
        !r.from.some((f: Obj) => f.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'monitoring'),
    );
    const gatewayOut = policy(cut, 'gateway');
    gatewayOut.spec.egress = gatewayOut.spec.egress.filter(
      (r: Obj) => !(r.ports ?? []).some((q: Obj) => q.port === 6379),
    );
    expect(compare(cut, overlay).missing).toEqual([
      p('gateway', IN_CLUSTER[overlay].redis?.label ?? 'outside', 6379),
      p('prometheus', 'gateway', 9080),
    ]);

    const widened = structuredClone(objects);
    policy(widened, 'gateway').spec.ingress.push({ ports: [{ port: 8080, protocol: 'TCP' }] });
    policy(widened, 'series').spec.egress.push({ ports: [{ port: 8081, protocol: 'TCP' }] });
    const extra = [
      p('kube-dns', 'gateway', 8080),
      p('node-local-dns', 'gateway', 8080),
      p('outside', 'gateway', 8080),
      p('prometheus', 'gateway', 8080),
      p('series', 'outside', 8081),
    ];
    expect(compare(widened, overlay).extra).toEqual(extra);
  });
});
