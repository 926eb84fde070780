import client from 'prom-client';
import { registerBuildInfo } from './build-info';

const registries = new Map<string, client.Registry>();

/**
 * The registry a service's /metrics shows, one per service and process: the process's default
 * metrics and its build info; libraries (the bus, the HTTP app's latency) add their own to it.
 */
export function serviceRegistry(name: string): client.Registry {
  let registry = registries.get(name);
  if (!registry) {
    registry = new client.Registry();
    registry.setDefaultLabels({ service: name });
    client.collectDefaultMetrics({ register: registry });
    registerBuildInfo(registry);
    registries.set(name, registry);
  }
  return registry;
}

/** A counter in a service's registry, made once per process (a second call answers the same one). */
export function serviceCounter<L extends string = string>(
  service: string,
  name: string,
  help: string,
  labelNames: readonly L[] = [],
): client.Counter<L> {
  const registry = serviceRegistry(service);
  return (
    (registry.getSingleMetric(name) as client.Counter<L> | undefined) ??
    new client.Counter({ name, help, labelNames, registers: [registry] })
  );
}
