/**
 * `pnpm bus:setup`: the bus setup step. Makes sure every JetStream stream of the bus table exists
 * with every subject (idempotent, safe while the previous release serves), as the NATS operator:
 * the services' own users may not create or change streams. Run it before the services start (a
 * Kubernetes Job or initContainer beside the migrations); a service given the operator's password
 * (NATS_SETUP_PASSWORD or NATS_PASSWORD_OPERATOR, as the launcher and compose do) runs it itself.
 * Environment: NATS_URL, BUS_NAMESPACE, NATS_SETUP_PASSWORD (else NATS_PASSWORD_OPERATOR), STREAM_*.
 */
import { setupBus } from '../libs/bus/src/connection';
import { EnvReader, readStreamSettings } from '../libs/http/src';

async function main(): Promise<void> {
  const url = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
  const pass = process.env.NATS_SETUP_PASSWORD || process.env.NATS_PASSWORD_OPERATOR;
  if (!pass) throw new Error('set NATS_SETUP_PASSWORD (the NATS operator password)');
  // The streams' replicas, limits and discard policy, as the services read them (STREAM_*).
  const r = new EnvReader(process.env);
  const streams = r.done('bus-setup', { streams: readStreamSettings(r) }).streams;
  await setupBus(url, process.env.BUS_NAMESPACE ?? '', { user: 'operator', pass }, streams);
  process.stdout.write(`bus setup: every stream is in place at ${url}\n`);
}

main().catch((err: unknown) => {
  process.stderr.write(`bus setup failed: ${String(err)}\n`);
  process.exit(1);
});
