/**
 * NATS for a cluster that runs its own broker (k8s/components/nats-cluster), rendered from the same
 * bus table as deploy/nats/nats.conf and from the streams' settings (STREAM_* of the overlay's
 * ConfigMap): a JetStream cluster with as many servers as the streams have replicas (at least three
 * when more than one), its file store sized to the streams' caps, each service a user with the
 * table's permissions that proves itself with an nkey (public keys from the server's Secret
 * `nats-users`, made by `pnpm nats:credentials`), TLS to clients and between servers (cert-manager).
 * `pnpm nats:config` writes it; a test fails when the committed files are not what this renders.
 */
import { BUS_STREAMS, type BusStream } from '../libs/contract/src';
import type { StreamSettings } from '../libs/platform/src/stream-config';
import { natsUsers, natsPasswordReferences } from '../libs/bus/src/auth';

/** The nats-server image of the component (compose's too): pin its digest where you pull it. */
export const NATS_IMAGE = 'nats:2.10.22-alpine';
const GIB = 1024 ** 3;
const PORTS = { client: 4222, cluster: 6222, monitor: 8222 } as const;
const TLS_DIR = '/etc/nats/tls';
const LABELS = { 'app.kubernetes.io/name': 'nats', 'app.kubernetes.io/part-of': 'meeting-memory' };

export interface NatsClusterOptions {
  streams: StreamSettings;
  /** `nkey` (default): each user by its public key, `$NATS_NKEY_<USER>`; `password`: `$NATS_PASSWORD_<USER>`. */
  auth?: 'nkey' | 'password';
  /** TLS to clients and between servers (default true): the Secret `nats-tls` (tls.crt, tls.key, ca.crt). */
  tls?: boolean;
  /** The Kubernetes namespace (certificate names). */
  namespace?: string;
}

/** How many servers: one for single-replica streams, else as many as the replicas and at least three (a quorum survives one loss). */
export function natsServers(streams: StreamSettings): number {
  return streams.replicas === 1 ? 1 : Math.max(3, streams.replicas);
}

/**
 * The file store each server needs: every stream's cap (a server holds at most one copy of each),
 * with a tenth more, in whole GiB; and the volume, 2 GiB more for the Raft logs and metadata.
 * Uncapped streams cannot be sized: refused, naming the setting.
 */
export function jetStreamStorage(streams: StreamSettings): { maxFileStore: number; volumeGi: number } {
  const names = Object.keys(BUS_STREAMS) as BusStream[];
  const uncapped = names.filter((s) => !(streams.maxBytes[s] > 0));
  if (uncapped.length)
    throw new Error(
      `cap every stream to size the NATS volumes: set ${uncapped.map((s) => `STREAM_MAX_BYTES_${s}`).join(', ')} (or STREAM_MAX_BYTES)`,
    );
  const total = names.reduce((sum, s) => sum + streams.maxBytes[s], 0);
  const gi = Math.ceil((total * 1.1) / GIB);
  return { maxFileStore: gi * GIB, volumeGi: gi + 2 };
}

/** The server users: the bus table's permissions, each proven by an nkey (or a password) from the environment. */
function usersText(auth: 'nkey' | 'password'): string {
  const users = natsUsers(natsPasswordReferences()).map(({ user, password, permissions }) =>
    auth === 'nkey'
      ? { nkey: `$NATS_NKEY_${user.toUpperCase()}`, ...(permissions ? { permissions } : {}) }
      : { user, password, ...(permissions ? { permissions } : {}) },
  );
  // An environment reference stays unquoted: nats-server reads it from its environment.
  return JSON.stringify(users, null, 2).replace(
    /"(nkey|password)": "(\$[A-Z][A-Z0-9_]*)"/g,
    (_m, key: string, ref: string) => `"${key}": ${ref}`,
  );
}

/** nats.conf of the StatefulSet's servers (each pod's name is its server name: $POD_NAME). */
export function natsClusterConfig(opts: NatsClusterOptions): string {
  const servers = natsServers(opts.streams);
  const { maxFileStore } = jetStreamStorage(opts.streams);
  const tls = opts.tls ?? true;
  const tlsBlock = (verify: boolean) =>
    `tls { cert_file: "${TLS_DIR}/tls.crt", key_file: "${TLS_DIR}/tls.key", ca_file: "${TLS_DIR}/ca.crt"${verify ? ', verify: true' : ''}, timeout: 3 }`;
  const lines = [
    "# Generated from the bus table and the prod overlay's STREAM_* settings by deploy/nats-cluster.ts (pnpm nats:config). Do not edit.",
    'server_name: $POD_NAME',
    `listen: "0.0.0.0:${PORTS.client}"`,
    `http_port: ${PORTS.monitor}`,
    // Lame-duck on SIGTERM spreads the clients over the other servers before this one stops.
    'lame_duck_duration: "30s"',
    'lame_duck_grace_period: "10s"',
    `jetstream { store_dir: "/data/jetstream", max_file_store: ${maxFileStore}, max_memory_store: ${256 * 1024 ** 2} }`,
  ];
  if (tls) lines.push(tlsBlock(false));
  if (servers > 1) {
    const routes = Array.from({ length: servers }, (_, i) => `"nats-route://nats-${i}.nats-headless:${PORTS.cluster}"`);
    // Servers prove themselves to each other with the certificate (mutual TLS); without TLS, nothing guards the routes but the NetworkPolicy.
    lines.push(
      `cluster { name: "meeting-memory", listen: "0.0.0.0:${PORTS.cluster}", routes: [${routes.join(', ')}]${tls ? `, ${tlsBlock(true)}` : ''} }`,
    );
  }
  lines.push(`authorization { users: ${usersText(opts.auth ?? 'nkey')} }`);
  return `${lines.join('\n')}\n`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = Record<string, any>;

/**
 * The component's objects: two Services, StatefulSet, PodDisruptionBudget, NetworkPolicy, and the
 * Certificate when TLS. The ConfigMap `nats-config` is the component's configMapGenerator over the
 * rendered nats.conf (its name gets the content's hash: a new configuration rolls the servers).
 */
export function natsClusterManifests(opts: NatsClusterOptions): Obj[] {
  const servers = natsServers(opts.streams);
  const { volumeGi } = jetStreamStorage(opts.streams);
  const tls = opts.tls ?? true;
  const ns = opts.namespace ?? 'meeting-memory';
  const port = (name: string, p: number) => ({ name, port: p, targetPort: p, protocol: 'TCP' });
  const objects: Obj[] = [
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'nats', labels: LABELS },
      spec: { selector: { 'app.kubernetes.io/name': 'nats' }, ports: [port('client', PORTS.client)] },
    },
    {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: 'nats-headless', labels: LABELS },
      spec: {
        clusterIP: 'None',
        publishNotReadyAddresses: true,
        selector: { 'app.kubernetes.io/name': 'nats' },
        ports: [port('client', PORTS.client), port('cluster', PORTS.cluster), port('monitor', PORTS.monitor)],
      },
    },
    {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 'nats', labels: LABELS },
      spec: {
        serviceName: 'nats-headless',
        replicas: servers,
        podManagementPolicy: 'Parallel',
        selector: { matchLabels: { 'app.kubernetes.io/name': 'nats' } },
        template: {
          metadata: { labels: LABELS },
          spec: {
            automountServiceAccountToken: false,
            terminationGracePeriodSeconds: 60,
            securityContext: {
              runAsNonRoot: true,
              runAsUser: 1000,
              runAsGroup: 1000,
              fsGroup: 1000,
              seccompProfile: { type: 'RuntimeDefault' },
            },
            topologySpreadConstraints: [
              {
                maxSkew: 1,
                topologyKey: 'kubernetes.io/hostname',
                whenUnsatisfiable: 'DoNotSchedule',
                labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'nats' } },
              },
              {
                maxSkew: 1,
                topologyKey: 'topology.kubernetes.io/zone',
                whenUnsatisfiable: 'ScheduleAnyway',
                labelSelector: { matchLabels: { 'app.kubernetes.io/name': 'nats' } },
              },
            ],
            containers: [
              {
                name: 'nats',
                image: NATS_IMAGE,
                args: ['-c', '/etc/nats/nats.conf'],
                env: [
                  { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
                  { name: 'GOMEMLIMIT', value: '900MiB' },
                ],
                // NATS_NKEY_<USER> (public keys; `pnpm nats:credentials`), or NATS_PASSWORD_<USER> with auth=password.
                envFrom: [{ secretRef: { name: 'nats-users' } }],
                ports: [
                  { name: 'client', containerPort: PORTS.client },
                  { name: 'cluster', containerPort: PORTS.cluster },
                  { name: 'monitor', containerPort: PORTS.monitor },
                ],
                startupProbe: {
                  httpGet: { path: '/healthz?js-enabled-only=true', port: PORTS.monitor },
                  periodSeconds: 5,
                  failureThreshold: 60,
                },
                readinessProbe: {
                  httpGet: { path: '/healthz?js-server-only=true', port: PORTS.monitor },
                  periodSeconds: 10,
                },
                livenessProbe: {
                  httpGet: { path: '/healthz?js-enabled-only=true', port: PORTS.monitor },
                  periodSeconds: 30,
                  failureThreshold: 3,
                },
                lifecycle: { preStop: { exec: { command: ['nats-server', '--signal', 'ldm=1'] } } },
                resources: {
                  requests: { cpu: '250m', memory: '512Mi', 'ephemeral-storage': '64Mi' },
                  limits: { memory: '1Gi', 'ephemeral-storage': '256Mi' },
                },
                securityContext: {
                  runAsNonRoot: true,
                  readOnlyRootFilesystem: true,
                  allowPrivilegeEscalation: false,
                  capabilities: { drop: ['ALL'] },
                },
                volumeMounts: [
                  { name: 'config', mountPath: '/etc/nats/nats.conf', subPath: 'nats.conf', readOnly: true },
                  { name: 'data', mountPath: '/data' },
                  ...(tls ? [{ name: 'tls', mountPath: TLS_DIR, readOnly: true }] : []),
                ],
              },
            ],
            volumes: [
              { name: 'config', configMap: { name: 'nats-config' } },
              ...(tls ? [{ name: 'tls', secret: { secretName: 'nats-tls' } }] : []),
            ],
          },
        },
        volumeClaimTemplates: [
          {
            metadata: { name: 'data' },
            spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: `${volumeGi}Gi` } } },
          },
        ],
      },
    },
    {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: 'nats', labels: LABELS },
      spec: { maxUnavailable: 1, selector: { matchLabels: { 'app.kubernetes.io/name': 'nats' } } },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: 'nats', labels: LABELS },
      spec: {
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'nats' } },
        policyTypes: ['Ingress', 'Egress'],
        ingress: [
          // The services and the bus setup Job of this namespace (each authenticates as its own user).
          { from: [{ podSelector: {} }], ports: [{ port: PORTS.client, protocol: 'TCP' }] },
          {
            from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'nats' } } }],
            ports: [{ port: PORTS.cluster, protocol: 'TCP' }],
          },
          // Prometheus' NATS exporter and KEDA read the monitoring port.
          {
            from: [
              { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } },
              { namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'keda' } } },
            ],
            ports: [{ port: PORTS.monitor, protocol: 'TCP' }],
          },
        ],
        egress: [
          {
            // The cluster's DNS pods, and NodeLocal DNSCache's address where the cluster runs it.
            to: [
              { namespaceSelector: {}, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } },
              { ipBlock: { cidr: '169.254.20.10/32' } },
            ],
            ports: [
              { port: 53, protocol: 'UDP' },
              { port: 53, protocol: 'TCP' },
            ],
          },
          {
            to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'nats' } } }],
            ports: [{ port: PORTS.cluster, protocol: 'TCP' }],
          },
        ],
      },
    },
  ];
  if (tls) {
    objects.push({
      apiVersion: 'cert-manager.io/v1',
      kind: 'Certificate',
      metadata: { name: 'nats-tls', labels: LABELS },
      spec: {
        secretName: 'nats-tls',
        // Your cluster's CA issuer (its ca.crt is what clients trust: NATS_TLS_CA_FILE).
        issuerRef: { name: 'meeting-memory-ca', kind: 'Issuer' },
        duration: '2160h',
        renewBefore: '360h',
        privateKey: { algorithm: 'ECDSA', size: 256, rotationPolicy: 'Always' },
        usages: ['server auth', 'client auth'],
        dnsNames: [
          'nats',
          `nats.${ns}`,
          `nats.${ns}.svc`,
          '*.nats-headless',
          `*.nats-headless.${ns}`,
          `*.nats-headless.${ns}.svc`,
        ],
      },
    });
  }
  return objects;
}
