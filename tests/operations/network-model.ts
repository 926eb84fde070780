/**
 * Who may reach whom in a rendered overlay, by its NetworkPolicies (Kubernetes semantics: a pod
 * selected by a policy of a type is isolated for that direction and takes only what some rule of
 * those policies allows; a path needs the source's egress and the destination's ingress).
 *
 * Nodes: the overlay's pods (Deployments, Jobs), the dependencies that run in the namespace (dev),
 * the ingress controller and Prometheus (their namespaces), kube-dns, and `outside` (managed
 * Postgres, S3, SMTP...: addresses outside the cluster). An egress rule by port alone (no `to`)
 * is the manifests' way of saying "the dependency on that port, at the address the configuration
 * names": it reaches an in-namespace dependency on that port when there is one, else `outside`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Obj = any;
type Labels = Record<string, string>;

export interface Node {
  name: string;
  namespace: string;
  labels: Labels;
  /** Ports it listens on (`outside`: every port). */
  ports: number[] | 'any';
  /** Pods of the overlay's namespace are subject to its policies; the others are not. */
  inNamespace: boolean;
  /** A dependency (Postgres, Redis...) running in the namespace: a rule by its port means it. */
  dependency?: boolean;
}

/** A path `from -> to:port`. */
export const path = (from: string, to: string, port: number) => `${from} -> ${to}:${port}`;

function selects(selector: Obj, labels: Labels): boolean {
  if (!selector) return true;
  const exact = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const expressions = (selector.matchExpressions ?? []).every((e: Obj) => {
    if (e.operator === 'In') return e.values.includes(labels[e.key]);
    if (e.operator === 'NotIn') return !e.values.includes(labels[e.key]);
    if (e.operator === 'Exists') return e.key in labels;
    if (e.operator === 'DoesNotExist') return !(e.key in labels);
    throw new Error(`unknown operator ${e.operator}`);
  });
  return exact && expressions;
}

const NAMESPACE_LABEL = 'kubernetes.io/metadata.name';
/** The address NodeLocal DNSCache listens on, on every node that runs it. */
export const NODE_LOCAL_DNS = '169.254.20.10/32';

/** Does a rule's peer list admit `peer`, seen from a policy of namespace `ns`? */
function admits(peers: Obj[] | undefined, peer: Node, ns: string, byPortReaches: (peer: Node) => boolean): boolean {
  if (!peers || peers.length === 0) return byPortReaches(peer);
  return peers.some((p: Obj) => {
    // NodeLocal DNSCache's link-local address: the node's DNS cache, not the outside world.
    if (p.ipBlock) return peer.name === (p.ipBlock.cidr === NODE_LOCAL_DNS ? 'node-local-dns' : 'outside');
    if (peer.name === 'outside') return false;
    const nsOk = p.namespaceSelector
      ? selects(p.namespaceSelector, { [NAMESPACE_LABEL]: peer.namespace })
      : peer.namespace === ns;
    return nsOk && selects(p.podSelector, peer.labels);
  });
}

const portsAdmit = (ports: Obj[] | undefined, port: number) =>
  !ports || ports.length === 0 || ports.some((p: Obj) => p.port === port);

/** Every path the policies allow between the nodes, on each port a destination listens on. */
export function allowedPaths(policies: Obj[], nodes: Node[], namespace: string): Set<string> {
  const inNs = (kind: 'Ingress' | 'Egress', node: Node) =>
    node.inNamespace
      ? policies.filter(
          (p) => (p.spec.policyTypes ?? ['Ingress']).includes(kind) && selects(p.spec.podSelector, node.labels),
        )
      : null;
  const inClusterPorts = new Set(
    nodes.filter((n) => n.dependency && n.ports !== 'any').flatMap((n) => n.ports as number[]),
  );
  const candidatePorts = new Set<number>();
  for (const p of policies)
    for (const r of [...(p.spec.egress ?? []), ...(p.spec.ingress ?? [])])
      for (const q of r.ports ?? []) candidatePorts.add(q.port);
  const out = new Set<string>();
  for (const src of nodes) {
    for (const dst of nodes) {
      // Paths between two nodes outside the namespace are none of its policies' business.
      if (src === dst || (!src.inNamespace && !dst.inNamespace)) continue;
      const ports = dst.ports === 'any' ? [...candidatePorts] : dst.ports;
      for (const port of ports) {
        // A rule by port alone reaches an in-namespace dependency on that port when there is one, else outside.
        const byPort = (peer: Node) => (peer.name === 'outside' ? !inClusterPorts.has(port) : true);
        const egress = inNs('Egress', src);
        const egressOk =
          !egress ||
          !egress.length ||
          egress.some((p) =>
            (p.spec.egress ?? []).some((r: Obj) => portsAdmit(r.ports, port) && admits(r.to, dst, namespace, byPort)),
          );
        const ingress = inNs('Ingress', dst);
        const ingressOk =
          !ingress ||
          !ingress.length ||
          ingress.some((p) =>
            (p.spec.ingress ?? []).some(
              (r: Obj) => portsAdmit(r.ports, port) && admits(r.from, src, namespace, () => true),
            ),
          );
        if (egressOk && ingressOk) out.add(path(src.name, dst.name, port));
      }
    }
  }
  return out;
}
