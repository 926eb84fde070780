/**
 * `pnpm nats:credentials [DIR]`: new nkeys for every NATS user of the bus table and the operator,
 * for a broker rendered by deploy/nats-cluster.ts (k8s/components/nats-cluster). Writes, mode 0600,
 * into DIR (default data/nats-credentials, never committed):
 *   nats-users.env       NATS_NKEY_<USER>=U… (public keys) for the server's Secret `nats-users`
 *   <service>.env        NATS_NKEY_SEED=SU… for that service's Secret (<service>-secrets) alone
 *   operator.env         NATS_SETUP_NKEY_SEED=SU… for the bus setup Job's Secret (bus-setup-secrets)
 * then prints the kubectl commands. Run it again to rotate every key (apply the server's Secret
 * with both old and new keys only if you roll services one by one: docs/operations.md).
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { newNatsNkeys, type NatsNkey } from '../libs/bus/src/nkeys';

/** The files' contents: the server's public keys, and each user's own seed. */
export function credentialFiles(keys: Record<string, NatsNkey>): Record<string, string> {
  const files: Record<string, string> = {
    'nats-users.env': Object.entries(keys)
      .map(([user, k]) => `NATS_NKEY_${user.toUpperCase()}=${k.publicKey}\n`)
      .join(''),
  };
  for (const [user, k] of Object.entries(keys))
    files[`${user}.env`] = user === 'operator' ? `NATS_SETUP_NKEY_SEED=${k.seed}\n` : `NATS_NKEY_SEED=${k.seed}\n`;
  return files;
}

if (require.main === module) {
  const dir = path.resolve(process.argv[2] ?? path.join(__dirname, '..', 'data', 'nats-credentials'));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  for (const [name, text] of Object.entries(credentialFiles(newNatsNkeys()))) {
    writeFileSync(path.join(dir, name), text, { mode: 0o600 });
    chmodSync(path.join(dir, name), 0o600);
  }
  process.stdout.write(
    [
      `wrote nkeys to ${dir} (keep the seeds secret; each file goes to one Secret):`,
      `  kubectl -n meeting-memory create secret generic nats-users --from-env-file=${dir}/nats-users.env`,
      `  append ${dir}/<service>.env to each <service>-secrets, and ${dir}/operator.env to bus-setup-secrets`,
      '',
    ].join('\n'),
  );
}
