import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * A client address (documentation range) no earlier run has used: rate windows outlive a run.
 * IPv6 budgets count a /64 network as one client, so each address is in a /64 of its own.
 */
export const freshAddress = (): string =>
  `2001:db8:${randomBytes(2).toString('hex')}:${randomBytes(2).toString('hex')}::${randomBytes(2).toString('hex')}`;

/** Another address in the same /64 network as `address` (freshAddress's form). */
export const neighbourOf = (address: string): string =>
  `${address.slice(0, address.lastIndexOf('::'))}::${randomBytes(2).toString('hex')}`;

/** Trust the test client as the ingress, so X-Forwarded-For names the client. */
export const TRUST_TEST_CLIENT = { TRUSTED_PROXIES: '127.0.0.1/32, ::1/128' };

/** A local port nothing listens on (a service that is down). */
export async function closedPort(): Promise<number> {
  const probe = createServer().listen(0, '127.0.0.1');
  await new Promise((r) => probe.once('listening', r));
  const { port } = probe.address() as { port: number };
  await new Promise((r) => probe.close(r));
  return port;
}
