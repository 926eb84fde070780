import { EnvReader, readStreamSettings } from '@mm/platform';
import { setupBus } from './connection';

/**
 * The bus setup step as a command: `node src/main.js bus-setup` in the gateway's image (the
 * Kubernetes Job `bus-setup`, compose's one-shot `bus-setup`) and `pnpm bus:setup` (deploy/bus-setup.ts).
 * Makes sure every JetStream stream of the bus table exists with every subject (idempotent, safe
 * while the previous release serves), as the NATS operator: the services' own users may not.
 * Environment: NATS_URL, BUS_NAMESPACE, NATS_SETUP_PASSWORD (else NATS_PASSWORD_OPERATOR; or
 * NATS_SETUP_NKEY_SEED / NATS_SETUP_CREDS_FILE), NATS_TLS_*_FILE, STREAM_*.
 */
export const BUS_SETUP_COMMAND = 'bus-setup';

/** True when the process was started as `node main.js bus-setup`. */
export function isBusSetupCommand(argv: string[] = process.argv): boolean {
  return argv[2] === BUS_SETUP_COMMAND;
}

/** Runs the step and exits: 0 when every stream is in place, 1 (with one line on stderr) otherwise. */
export function runBusSetup(env: NodeJS.ProcessEnv = process.env): void {
  const url = env.NATS_URL ?? 'nats://127.0.0.1:4222';
  Promise.resolve()
    .then(async () => {
      const pass = env.NATS_SETUP_PASSWORD || env.NATS_PASSWORD_OPERATOR;
      // Or the operator's nkey seed / credentials file (a broker made by deploy/nats-credentials.ts).
      const nkeySeed = env.NATS_SETUP_NKEY_SEED || undefined;
      const credsFile = env.NATS_SETUP_CREDS_FILE || undefined;
      if (!pass && !nkeySeed && !credsFile)
        throw new Error(
          'set NATS_SETUP_PASSWORD (the NATS operator password), NATS_SETUP_NKEY_SEED or NATS_SETUP_CREDS_FILE',
        );
      const tls = {
        caFile: env.NATS_TLS_CA_FILE || undefined,
        certFile: env.NATS_TLS_CERT_FILE || undefined,
        keyFile: env.NATS_TLS_KEY_FILE || undefined,
      };
      // The streams' replicas, limits and discard policy, as the services read them (STREAM_*).
      const r = new EnvReader(env);
      const streams = r.done('bus-setup', { streams: readStreamSettings(r) }).streams;
      await setupBus(url, env.BUS_NAMESPACE ?? '', { user: 'operator', pass, nkeySeed, credsFile, tls }, streams);
      process.stdout.write(`bus setup: every stream is in place at ${url}\n`);
      process.exit(0);
    })
    .catch((err: unknown) => {
      process.stderr.write(
        `bus setup failed: ${String(err instanceof Error ? err.message : err).replace(/\s*\n\s*/g, ' ')}\n`,
      );
      process.exit(1);
    });
}
