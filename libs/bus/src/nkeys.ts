import { nkeys } from 'nats';
import { BUS_SERVICES } from '@mm/contract';

/**
 * NATS nkeys for the broker's users (every service of the bus table and the operator): the seed
 * (`SU…`) is the user's secret, given to it alone (NATS_NKEY_SEED); the public key (`U…`) is what
 * the server knows (NATS_NKEY_<USER> in its Secret `nats-users`, read by the cluster's nats.conf,
 * deploy/nats-cluster.ts). `pnpm nats:credentials` writes them (deploy/nats-credentials.ts).
 */
export interface NatsNkey {
  seed: string;
  publicKey: string;
}

/** Every user's nkey pair, new. */
export function newNatsNkeys(): Record<string, NatsNkey> {
  return Object.fromEntries(
    [...BUS_SERVICES, 'operator'].map((user) => {
      const pair = nkeys.createUser();
      return [user, { seed: new TextDecoder().decode(pair.getSeed()), publicKey: pair.getPublicKey() }];
    }),
  );
}

/** The public key a seed stands for (a seed that is no user seed throws). */
export function nkeyPublicKey(seed: string): string {
  if (!seed.startsWith('SU')) throw new Error('not a user nkey seed');
  return nkeys.fromSeed(new TextEncoder().encode(seed)).getPublicKey();
}
