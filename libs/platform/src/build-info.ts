import client from 'prom-client';

/**
 * What build a process runs: the image's version and commit (APP_VERSION and GIT_COMMIT, which
 * deploy/Dockerfile bakes in from its build arguments; `dev` and `unknown` from a checkout) and
 * Node's version. On /healthz and as the `build_info` metric (value 1, the facts as labels).
 */
export interface BuildInfo {
  version: string;
  commit: string;
  node: string;
}

export function buildInfo(env: NodeJS.ProcessEnv = process.env): BuildInfo {
  return { version: env.APP_VERSION || 'dev', commit: env.GIT_COMMIT || 'unknown', node: process.version };
}

/** The `build_info` gauge in a service's registry. */
export function registerBuildInfo(registry: client.Registry, info: BuildInfo = buildInfo()): void {
  if (registry.getSingleMetric('build_info')) return;
  const gauge = new client.Gauge({
    name: 'build_info',
    help: 'The running build: version, commit and Node version as labels (value 1)',
    labelNames: ['version', 'commit', 'node'],
    registers: [registry],
    aggregator: 'first',
  });
  gauge.set(info, 1);
}

/** The /healthz answer: alive, and which build. */
export function healthBody(info: BuildInfo = buildInfo()): { status: 'ok'; version: string; commit: string } {
  return { status: 'ok', version: info.version, commit: info.commit };
}
