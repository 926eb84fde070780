import { randomBytes } from 'node:crypto';
import { BUS_ENTRIES, BUS_SERVICES, type BusService } from '@mm/contract';

/**
 * NATS authentication and authorization generated from the bus table: one user per service,
 * allowed to publish and subscribe exactly the subjects its rows of the table give it, plus the
 * `operator` user of admin tools and tests. The broker enforces it; a service's credentials cannot
 * serve, ask, publish or read another service's subjects.
 */

/** Each connection's reply inbox: `_INBOX_<user>`, so that no user can read another's replies. */
export const inboxPrefix = (user: string) => `_INBOX_${user}`;

export interface NatsPermissions {
  publish: { allow: string[]; deny?: string[] };
  subscribe: { allow: string[] };
  /** Servers answer on the reply subject of the requests they take. */
  allow_responses?: boolean;
}

/**
 * What JetStream needs beyond subjects: stream and consumer management (each service makes sure
 * its streams and durables exist), pulling and acking. What would destroy data (deleting or
 * purging a stream, deleting a consumer or a message) is denied; reading the dead letters and
 * removing a replayed one is left to the gateway, which serves the admin API.
 */
const JS_API = ['$JS.API.INFO', '$JS.API.STREAM.INFO.*', '$JS.API.STREAM.CREATE.*', '$JS.API.STREAM.UPDATE.*', '$JS.API.STREAM.NAMES', '$JS.API.CONSUMER.>', '$JS.ACK.>'];
const JS_DENY = ['$JS.API.STREAM.DELETE.*', '$JS.API.STREAM.PURGE.*', '$JS.API.CONSUMER.DELETE.>', '$JS.API.STREAM.MSG.DELETE.*'];

/** The permissions of one service. `namespace` is put before every subject: `*.` for the tests' per-stack namespaces. */
export function servicePermissions(service: BusService, namespace = ''): NatsPermissions {
  const publish = new Set<string>();
  const subscribe = new Set<string>([`${inboxPrefix(service)}.>`]);
  let serves = false;
  for (const e of BUS_ENTRIES) {
    const subject = namespace + e.subject;
    const owns = e.owner === service;
    const uses = e.users.includes(service);
    if (!owns && !uses) continue;
    if (e.kind === 'request') {
      if (owns) {
        subscribe.add(subject);
        serves = true;
      }
      if (uses) publish.add(subject);
    } else {
      // The publisher of a fact is its owner; the publishers of a job are its users.
      if (e.kind === 'fact' ? owns : uses) publish.add(subject);
      // A consumer sends what it cannot handle, and an outbox what JetStream refuses, to the dead letters.
      publish.add(`${namespace}deadletter.${e.subject}`);
    }
  }
  if (service === 'gateway') {
    // The admin API replays dead letters to their subjects and lists and removes them.
    for (const e of BUS_ENTRIES) if (e.kind !== 'request') publish.add(namespace + e.subject);
    publish.add('$JS.API.STREAM.MSG.GET.*');
    publish.add('$JS.API.STREAM.MSG.DELETE.*');
  }
  for (const s of JS_API) publish.add(s);
  const deny = service === 'gateway' ? JS_DENY.filter((d) => d !== '$JS.API.STREAM.MSG.DELETE.*') : JS_DENY;
  return { publish: { allow: [...publish].sort(), deny }, subscribe: { allow: [...subscribe].sort() }, ...(serves ? { allow_responses: true } : {}) };
}

export interface NatsUser {
  user: string;
  password: string;
  permissions?: NatsPermissions;
}

/** A password for a NATS user (48 random characters). */
export const newNatsPassword = () => randomBytes(36).toString('base64url');

/** The users of the broker: every service with its permissions, and the operator (no limits). */
export function natsUsers(passwords: Record<string, string>, namespace = ''): NatsUser[] {
  return [
    ...BUS_SERVICES.map((s) => ({ user: s, password: passwords[s], permissions: servicePermissions(s, namespace) })),
    { user: 'operator', password: passwords.operator },
  ];
}

/** A nats-server configuration: JetStream in `storeDir`, the users, nothing reachable without a password. */
export function natsServerConfig(opts: { port: number; storeDir: string; passwords: Record<string, string>; namespace?: string; host?: string }): string {
  const users = natsUsers(opts.passwords, opts.namespace);
  return `${[
    '# Generated from the bus table (libs/contract/src/bus) by libs/bus/src/auth.ts. Do not edit.',
    `host: ${JSON.stringify(opts.host ?? '127.0.0.1')}`,
    `port: ${opts.port}`,
    `jetstream { store_dir: ${JSON.stringify(opts.storeDir)} }`,
    `authorization { users: ${JSON.stringify(users, null, 2)} }`,
  ].join('\n')}\n`;
}

/** Every password, new: the services', as NATS_PASSWORD_<SERVICE>, and the operator's. */
export function newNatsPasswords(): Record<string, string> {
  return Object.fromEntries([...BUS_SERVICES, 'operator'].map((u) => [u, newNatsPassword()]));
}
