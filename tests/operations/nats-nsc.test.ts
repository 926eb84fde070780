import { BUS_SERVICES } from '@mm/contract';
import { natsServerConfig, natsPasswordReferences } from '@mm/bus';
import { nscCommands } from '../../deploy/nats-nsc';

/** The quoted, comma-separated list after a flag of an `nsc add user` line, or null. */
const listOf = (line: string, flag: string): string[] | null => {
  const m = new RegExp(`${flag} '([^']*)'`).exec(line);
  return m ? m[1].split(',') : null;
};

describe('pnpm nats:nsc: the bus permissions as nsc commands, for an operator-mode broker', () => {
  const lines = nscCommands('MM');
  // The committed nats.conf's users, the other form of the same permissions.
  const conf = natsServerConfig({ port: 4222, storeDir: '/data', passwords: natsPasswordReferences() });

  it.each(BUS_SERVICES.map((s) => [s]))('gives %s exactly the subjects nats.conf gives it', (service) => {
    const line = lines.find((l) => l.startsWith(`nsc add user --account MM --name ${service} `));
    expect(line).toBeDefined();
    const block = conf.slice(conf.indexOf(`"user": "${service}"`));
    const user = JSON.parse(
      `{${block.slice(0, block.indexOf('\n  }') + 1).replace(/"password": \$\w+/, '"password": null')}}`,
    );
    expect({
      pub: listOf(line!, '--allow-pub'),
      deny: listOf(line!, '--deny-pub') ?? undefined,
      sub: listOf(line!, '--allow-sub'),
    }).toEqual({
      pub: user.permissions.publish.allow,
      deny: user.permissions.publish.deny?.length ? user.permissions.publish.deny : undefined,
      sub: user.permissions.subscribe.allow,
    });
  });

  it('adds the operator without limits and makes a credentials file per user', () => {
    expect(lines).toContain('nsc add user --account MM --name operator');
    for (const user of [...BUS_SERVICES, 'operator'])
      expect(lines).toContain(`nsc generate creds --account MM --name ${user} > ${user}.creds`);
  });

  it('refuses an account name a shell would read otherwise', () => {
    expect(() => nscCommands('MM; rm -rf /')).toThrow(/letters, digits/);
  });
});
