import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { BUS_STREAMS } from '@mm/contract';
import { allowedPaths, type Node } from './network-model';
import { loadConfig as mcpConfig } from '../../services/mcp/src/config';
import { hostProblem, isLoopback } from '../../services/mcp/src/domain/request-guard';

/** Issue 26: the opt-in components (ServiceMonitors, alert rules, KEDA) fit what the code serves. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;
const ROOT = path.resolve(__dirname, '..', '..');
const COMPONENTS = ['service-monitors', 'alerts', 'keda-pipeline', 'mcp-http'];

/** The prod overlay with the given components, as an operator's own overlay would list them. */
function render(components: string[]): Obj[] {
  const dir = mkdtempSync(path.join(tmpdir(), 'mm-kc-'));
  try {
    const k8s = path.relative(dir, path.join(ROOT, 'k8s'));
    writeFileSync(
      path.join(dir, 'kustomization.yaml'),
      JSON.stringify({
        resources: [`${k8s}/overlays/prod`],
        components: components.map((c) => `${k8s}/components/${c}`),
      }),
    );
    const yaml = execFileSync('kubectl', ['kustomize', '--load-restrictor', 'LoadRestrictionsNone', dir], {
      encoding: 'utf8',
    });
    return parseAllDocuments(yaml)
      .map((d) => d.toJS())
      .filter(Boolean);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Every TypeScript source of the services and libraries, read together. */
const code = ['libs', 'services']
  .flatMap((top) =>
    readdirSync(path.join(ROOT, top), { recursive: true, encoding: 'utf8' })
      .filter((f) => /\/src\/.*\.ts$/.test(f) && !f.includes('node_modules'))
      .map((f) => path.join(top, f)),
  )
  .map((f) => readFileSync(path.join(ROOT, f), 'utf8'))
  .join('\n');

describe('the kustomize components', () => {
  const objects = render(COMPONENTS);
  const of = (kind: string) => objects.filter((o) => o.kind === kind);

  it("pin every image of another project by version or digest, never latest (ours: the overlay's images)", () => {
    const all = render(['nats-cluster', 'whisper-server', ...COMPONENTS]);
    const images = all
      .flatMap((o) => [
        ...(o.spec?.template?.spec?.containers ?? []),
        ...(o.spec?.template?.spec?.initContainers ?? []),
      ])
      .map((c: { image: string }) => c.image);
    expect(images).toContain(
      'ghcr.io/speaches-ai/speaches:0.8.3-cpu@sha256:21e3df06d842fb7802ab470dd77c25f0e8c0d22950e8d8c6ae886e851af53ef8',
    );
    const theirs = [...new Set(images)].filter((image) => !image.includes('meeting-memory/'));
    expect(theirs.length).toBeGreaterThanOrEqual(2);
    for (const image of theirs) {
      const pinned = /(:\d[\w.-]*|@sha256:[0-9a-f]{64})$/.test(image) && !/:latest/.test(image);
      expect({ image, pinned }).toEqual({ image, pinned: true });
    }
  });

  it('are opt in: the overlays alone render none of their kinds', () => {
    const plain = render([]);
    expect(plain.filter((o) => ['ServiceMonitor', 'PrometheusRule', 'ScaledObject'].includes(o.kind))).toEqual([]);
  });

  it('scrape each service on the port its pods say /metrics is on', () => {
    const scraped = of('Deployment').filter(
      (d) => d.spec.template.metadata.annotations?.['prometheus.io/scrape'] === 'true',
    );
    // One ServiceMonitor per scraped Deployment, none more (every service, the app included).
    expect(
      of('ServiceMonitor')
        .map((m) => m.metadata.name)
        .sort(),
    ).toEqual(scraped.map((d) => d.metadata.name).sort());
    expect(scraped.length).toBeGreaterThanOrEqual(8);
    for (const d of scraped) {
      const name = d.metadata.name;
      const podPort = Number(d.spec.template.metadata.annotations['prometheus.io/port']);
      const monitor = of('ServiceMonitor').find((m) => m.metadata.name === name);
      const portName = monitor.spec.endpoints[0].port;
      const service = of('Service').find(
        (s) => s.spec.selector['app.kubernetes.io/name'] === name && s.spec.ports.some((q: Obj) => q.name === portName),
      );
      const target = service.spec.ports.find((q: Obj) => q.name === portName).targetPort;
      const container = d.spec.template.spec.containers[0].ports.find(
        (q: Obj) => q.name === target || q.containerPort === target,
      );
      expect({ name, port: container.containerPort, path: monitor.spec.endpoints[0].path }).toEqual({
        name,
        port: podPort,
        path: '/metrics',
      });
    }
  });

  it('alert on outbox lag, dead letters, queue depth, 5xx rate and pipeline failures, with metrics the code exports', () => {
    const rules = of('PrometheusRule').flatMap((r) => r.spec.groups.flatMap((g: Obj) => g.rules));
    expect(rules.map((r: Obj) => r.alert).sort()).toEqual(
      [
        'MeetingMemoryDeadLetters',
        'MeetingMemoryHigh5xxRate',
        'MeetingMemoryOutboxLag',
        'MeetingMemoryPipelineFailures',
        'MeetingMemoryPipelineQueueDepth',
      ].sort(),
    );
    const metrics = new Set(
      rules.flatMap((r: Obj) => [...String(r.expr).matchAll(/\b([a-z_]+)(?:\{|\[|\))/g)].map((m) => m[1])),
    );
    // The NATS exporter's metric aside, each is registered by the services' code.
    const ours = [...metrics].filter(
      (m) => !m.startsWith('jetstream_') && !['sum', 'max', 'rate', 'increase', 'by'].includes(m),
    );
    expect(ours.filter((m) => !code.includes(`'${m.replace(/_count$/, '')}'`))).toEqual([]);
    expect(ours.length).toBeGreaterThanOrEqual(4);
  });

  it('scale the pipeline with KEDA on its transcription consumer, and leave it no fixed replica count', () => {
    const [scaled] = of('ScaledObject');
    expect(scaled.spec.scaleTargetRef.name).toBe('pipeline');
    const trigger = scaled.spec.triggers[0];
    expect(Object.keys(BUS_STREAMS)).toContain(trigger.metadata.stream);
    expect(code).toContain(`durable: '${trigger.metadata.consumer}'`);
    expect(of('Deployment').find((d) => d.metadata.name === 'pipeline').spec.replicas).toBeUndefined();
  });

  it('run the MCP HTTP server from its own image target, reached through the ingress, reaching the gateway alone', () => {
    const mcp = of('Deployment').find((d) => d.metadata.name === 'mcp');
    expect(mcp.spec.template.spec.containers[0].image).toBe('meeting-memory/mcp');
    expect(readFileSync(path.join(ROOT, 'deploy', 'Dockerfile'), 'utf8')).toMatch(
      /FROM runtime AS mcp\n[\s\S]*CMD \["node", "src\/main\.js", "--http"\]/,
    );
    const pod = (name: string): Node => {
      const d = of('Deployment').find((x) => x.metadata.name === name);
      return {
        name,
        namespace: 'meeting-memory',
        labels: d.spec.template.metadata.labels,
        ports: d.spec.template.spec.containers[0].ports.map((q: Obj) => q.containerPort),
        inNamespace: true,
      };
    };
    const nodes: Node[] = [
      pod('mcp'),
      pod('gateway'),
      { name: 'ingress-nginx', namespace: 'ingress-nginx', labels: {}, ports: [], inNamespace: false },
      { name: 'outside', namespace: '', labels: {}, ports: 'any', inNamespace: false },
    ];
    const paths = [...allowedPaths(of('NetworkPolicy'), nodes, 'meeting-memory')]
      .filter((x) => x.includes('mcp'))
      .sort();
    expect(paths).toEqual(['ingress-nginx -> mcp:8090', 'mcp -> gateway:8080']);
  });

  it('gives the MCP server only variables it reads, so that it listens on the pod network and answers its Host', () => {
    const c = of('Deployment').find((d) => d.metadata.name === 'mcp').spec.template.spec.containers[0];
    const env: Record<string, string> = Object.assign(
      {},
      ...(c.envFrom ?? []).map((f: Obj) => of('ConfigMap').find((m) => m.metadata.name === f.configMapRef?.name).data),
      Object.fromEntries((c.env ?? []).map((e: Obj) => [e.name, e.value])),
    );
    // The MCP server reads MCP_HOST (services/mcp/src/config.ts), not the services' HOST.
    const reads = new Set(
      [...readFileSync(path.join(ROOT, 'services', 'mcp', 'src', 'config.ts'), 'utf8').matchAll(/env\.([A-Z_]+)/g)].map(
        (m) => m[1],
      ),
    );
    expect(Object.keys(env).filter((k) => !reads.has(k))).toEqual([]);
    const cfg = mcpConfig(env);
    // Probes and the Service reach the pod's address; a loopback listener answers neither.
    expect({ host: cfg.host, loopback: isLoopback(cfg.host) }).toEqual({ host: cfg.host, loopback: false });
    expect(cfg.port).toBe(c.ports[0].containerPort);
    // The Host the Ingress passes on is answered (an empty list answers the loopback names alone: 403).
    expect(cfg.allowedHosts.length).toBeGreaterThan(0);
    for (const host of cfg.allowedHosts) expect(hostProblem(host, cfg.allowedHosts)).toBeNull();
    expect(hostProblem('mcp:8090', cfg.allowedHosts)).not.toBeNull();
    // The 401 sends people to a page they can open, not the gateway's address inside the cluster.
    expect(new URL(cfg.tokenHelpUrl ?? cfg.url).protocol).toBe('https:');
  });
});
