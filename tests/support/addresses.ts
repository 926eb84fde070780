import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';

/** A client address (documentation range) no earlier run has used: rate windows outlive a run. */
export const freshAddress = (): string => `2001:db8:${randomBytes(2).toString('hex')}::${randomBytes(2).toString('hex')}`;

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
