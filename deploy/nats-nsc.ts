/**
 * `pnpm nats:nsc [ACCOUNT]`: the `nsc` commands that give each NATS user of the bus table its
 * permissions on an operator-mode (JWT) broker: a provider's (Synadia Cloud) or one of your own
 * run with `nsc`. Such a broker cannot load deploy/nats/nats.conf; its users and their permissions
 * are claims in JWTs made with `nsc`. Prints, for ACCOUNT (default MEETING_MEMORY): one `nsc add
 * user` per service with exactly the subjects it may publish and subscribe (libs/bus
 * servicePermissions, the same lists as nats.conf), the operator (the bus setup step: no limits),
 * then `nsc generate creds` for each, whose file is that service's NATS_CREDS_FILE (the operator's:
 * NATS_SETUP_CREDS_FILE). Nothing is run: read, then paste. BUS_NAMESPACE, when set, prefixes the
 * subjects as the services prefix theirs.
 */
import { BUS_SERVICES } from '../libs/contract/src';
import { servicePermissions } from '../libs/bus/src/auth';

/** A list of subjects as one shell word: comma-separated, single-quoted (subjects hold `*` and `>`). */
const subjects = (list: readonly string[]) => `'${list.join(',')}'`;

/** The commands, one a line. */
export function nscCommands(account: string, namespace = ''): string[] {
  if (!/^[A-Za-z0-9_-]+$/.test(account))
    throw new Error(`account name ${JSON.stringify(account)}: letters, digits, - and _ only`);
  const lines = [
    `# Generated from the bus table (libs/contract/src/bus) by deploy/nats-nsc.ts for account ${account}.`,
  ];
  for (const service of BUS_SERVICES) {
    const p = servicePermissions(service, namespace);
    const words = [`nsc add user --account ${account} --name ${service}`];
    words.push(`--allow-pub ${subjects(p.publish.allow)}`);
    if (p.publish.deny?.length) words.push(`--deny-pub ${subjects(p.publish.deny)}`);
    words.push(`--allow-sub ${subjects(p.subscribe.allow)}`);
    lines.push(words.join(' '));
  }
  lines.push(`nsc add user --account ${account} --name operator`);
  for (const user of [...BUS_SERVICES, 'operator'])
    lines.push(`nsc generate creds --account ${account} --name ${user} > ${user}.creds`);
  return lines;
}

if (require.main === module) {
  process.stdout.write(
    `${nscCommands(process.argv[2] ?? 'MEETING_MEMORY', process.env.BUS_NAMESPACE ?? '').join('\n')}\n`,
  );
}
