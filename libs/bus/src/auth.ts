import { randomBytes } from 'node:crypto';
import { BUS_CONSUMERS, BUS_ENTRIES, BUS_SERVICES, type BusService, type BusStream } from '@mm/contract';
import { inboxPrefix, streamName } from './names';
import { deadLetterSubject } from './dead-letter-subject';

/**
 * NATS authentication and authorization generated from the bus table: one user per service,
 * allowed to publish and subscribe exactly the subjects its rows of the table give it, and to use
 * JetStream only on its own streams and durables, plus the `operator` user of admin tools, tests
 * and the setup step (the only one that creates or changes streams). The broker enforces it; a
 * service's credentials cannot serve, ask, publish or read another service's subjects or events.
 */

export { inboxPrefix };

export interface NatsPermissions {
  publish: { allow: string[]; deny?: string[] };
  subscribe: { allow: string[] };
  /** Servers answer on the reply subject of the requests they take. */
  allow_responses?: boolean;
}

/**
 * What no service may do to JetStream: create, change, delete or purge a stream (the setup step
 * does that, as the operator), delete a consumer or a message (the gateway alone removes a
 * replayed dead letter). Denied outright, beside the narrow allow list.
 */
const JS_DENY = [
  '$JS.API.STREAM.CREATE.*',
  '$JS.API.STREAM.UPDATE.*',
  '$JS.API.STREAM.DELETE.*',
  '$JS.API.STREAM.PURGE.*',
  '$JS.API.CONSUMER.DELETE.>',
  '$JS.API.STREAM.MSG.DELETE.*',
];

/** A stream's name as a subject token: exact in one namespace, any stream under the tests' `*.`. */
const streamToken = (namespace: string, stream: BusStream) =>
  namespace === '*.' ? '*' : streamName(namespace, stream);

/** The streams a service touches: those of its facts and jobs, and the dead letters it may write (or, the gateway, read). */
export function streamsOf(service: BusService): BusStream[] {
  const streams = new Set<BusStream>();
  for (const e of BUS_ENTRIES)
    if (e.kind !== 'request' && (e.owner === service || e.users.includes(service)))
      streams.add(e.stream!).add('DEADLETTER');
  if (service === 'gateway') streams.add('DEADLETTER');
  return [...streams].sort();
}

/**
 * JetStream rights from the table: look at its own streams; create, update, read, pull from and
 * ack only its own durables (BUS_CONSUMERS), on their streams. Nothing else of the JetStream API.
 */
function jetStreamRights(service: BusService, namespace: string): string[] {
  const rights = ['$JS.API.INFO', ...streamsOf(service).map((s) => `$JS.API.STREAM.INFO.${streamToken(namespace, s)}`)];
  for (const c of BUS_CONSUMERS.filter((x) => x.service === service)) {
    const at = `${streamToken(namespace, c.stream)}.${c.durable}`;
    rights.push(
      `$JS.API.CONSUMER.CREATE.${at}`,
      `$JS.API.CONSUMER.CREATE.${at}.>`,
      `$JS.API.CONSUMER.DURABLE.CREATE.${at}`,
    );
    rights.push(`$JS.API.CONSUMER.INFO.${at}`, `$JS.API.CONSUMER.MSG.NEXT.${at}`, `$JS.ACK.${at}.>`);
  }
  if (service === 'gateway') {
    // The admin API lists the dead letters and removes a replayed one.
    const dead = streamToken(namespace, 'DEADLETTER');
    rights.push(`$JS.API.STREAM.MSG.GET.${dead}`, `$JS.API.STREAM.MSG.DELETE.${dead}`);
  }
  return rights;
}

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
      // A consumer sends what it cannot handle, and an outbox what JetStream refuses, to the dead
      // letters, under its own name: the letter's subject says who dead-lettered it.
      publish.add(`${namespace}${deadLetterSubject(service, e.subject)}`);
    }
  }
  if (service === 'gateway') {
    // The admin API replays dead letters to their subjects (facts and jobs only, never a request).
    for (const e of BUS_ENTRIES) if (e.kind !== 'request') publish.add(namespace + e.subject);
  }
  for (const s of jetStreamRights(service, namespace)) publish.add(s);
  const deny = service === 'gateway' ? JS_DENY.filter((d) => d !== '$JS.API.STREAM.MSG.DELETE.*') : JS_DENY;
  return {
    publish: { allow: [...publish].sort(), deny },
    subscribe: { allow: [...subscribe].sort() },
    ...(serves ? { allow_responses: true } : {}),
  };
}

export interface NatsUser {
  user: string;
  password: string;
  permissions?: NatsPermissions;
}

/**
 * A password for a NATS user: a letter, then 48 hex digits (192 random bits). nats-server parses a
 * password it reads from its environment, and one starting with `-` or reading as a number stops
 * it: this one is safe to paste into an env file.
 */
export const newNatsPassword = () => `p${randomBytes(24).toString('hex')}`;

/** The users of the broker: every service with its permissions, and the operator (no limits). */
export function natsUsers(passwords: Record<string, string>, namespace = ''): NatsUser[] {
  return [
    ...BUS_SERVICES.map((s) => ({ user: s, password: passwords[s], permissions: servicePermissions(s, namespace) })),
    { user: 'operator', password: passwords.operator },
  ];
}

/** In place of a password: nats-server reads it from this environment variable when it starts. */
const ENV_REFERENCE = /^\$[A-Z][A-Z0-9_]*$/;

/**
 * A nats-server configuration: JetStream in `storeDir`, the users, nothing reachable without a
 * password. A password written `$NATS_PASSWORD_ACCOUNT` stays a reference to the server's
 * environment (a Kubernetes Secret, a compose env file): the committed `deploy/nats/nats.conf`.
 */
export function natsServerConfig(opts: {
  port: number;
  storeDir: string;
  passwords: Record<string, string>;
  namespace?: string;
  host?: string;
}): string {
  const users = natsUsers(opts.passwords, opts.namespace);
  const usersText = JSON.stringify(users, null, 2).replace(
    /"password": "(\$[A-Z][A-Z0-9_]*)"/g,
    (_m, ref: string) => `"password": ${ref}`,
  );
  for (const u of users)
    if (u.password.startsWith('$') && !ENV_REFERENCE.test(u.password))
      throw new Error(`${u.user}: a password reference must look like $NAME`);
  return `${[
    '# Generated from the bus table (libs/contract/src/bus) by libs/bus/src/auth.ts. Do not edit.',
    `host: ${JSON.stringify(opts.host ?? '127.0.0.1')}`,
    `port: ${opts.port}`,
    `jetstream { store_dir: ${JSON.stringify(opts.storeDir)} }`,
    `authorization { users: ${usersText} }`,
  ].join('\n')}\n`;
}

/** Every user's password as a reference to the server's environment (`$NATS_PASSWORD_<USER>`). */
export function natsPasswordReferences(): Record<string, string> {
  return Object.fromEntries([...BUS_SERVICES, 'operator'].map((u) => [u, `$NATS_PASSWORD_${u.toUpperCase()}`]));
}

/** Every password, new: the services', as NATS_PASSWORD_<SERVICE>, and the operator's. */
export function newNatsPasswords(): Record<string, string> {
  return Object.fromEntries([...BUS_SERVICES, 'operator'].map((u) => [u, newNatsPassword()]));
}
