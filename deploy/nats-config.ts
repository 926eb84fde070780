/**
 * `pnpm nats:config`: writes deploy/nats/nats.conf, the broker's configuration for compose and
 * Kubernetes, generated from the bus table: one user per service with its permissions, passwords
 * read from the server's environment ($NATS_PASSWORD_<USER>, from a Secret). A test fails when the
 * committed file is not what the table generates.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { natsPasswordReferences, natsServerConfig } from '../libs/bus/src/auth';

export const NATS_CONF = path.join(__dirname, 'nats', 'nats.conf');

export function deployedNatsConfig(): string {
  return natsServerConfig({ host: '0.0.0.0', port: 4222, storeDir: '/data/jetstream', passwords: natsPasswordReferences() });
}

if (require.main === module) {
  writeFileSync(NATS_CONF, deployedNatsConfig());
  process.stdout.write(`wrote ${path.relative(process.cwd(), NATS_CONF)}\n`);
}
