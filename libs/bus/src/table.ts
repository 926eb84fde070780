import type { ValidateFunction } from 'ajv';
import { headers as natsHeaders, type MsgHdrs } from 'nats';
import { BUS_ENTRIES, type BusEntry } from '@mm/contract';
import { createAjv } from '@mm/platform';

/** Header of every message: the version of the entry's schema the payload follows (1 when absent). */
export const VERSION_HEADER = 'Mm-Bus-Version';
/** Header of a request made for a caller: the caller's signed principal (the gateway's JWT format). */
export const PRINCIPAL_HEADER = 'Mm-Principal';

/** A message that does not follow its entry of the bus table. */
export class BusContractError extends Error {
  readonly code = 'VALIDATION';
  constructor(
    readonly subject: string,
    readonly problem: string,
  ) {
    super(`${subject}: ${problem}`);
  }
}

const ajv = createAjv();
const compiled = new WeakMap<object, ValidateFunction>();

function validatorOf(schema: object): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn;
}

/**
 * Checks a payload (or a reply) against the entry's schema of `version`. Throws BusContractError
 * for an unknown version or a message that does not follow it.
 */
export function check(
  entry: BusEntry<any, any>,
  what: 'payload' | 'reply',
  value: unknown,
  version = entry.version,
): void {
  const v = entry.versions[version];
  if (!v)
    throw new BusContractError(
      entry.subject,
      `version ${version} is not accepted (accepted: ${Object.keys(entry.versions).join(', ')})`,
    );
  const schema = what === 'payload' ? v.payload : v.reply;
  if (!schema) throw new BusContractError(entry.subject, `version ${version} has no ${what}`);
  const fn = validatorOf(schema);
  if (!fn(value)) throw new BusContractError(entry.subject, `${what} ${ajv.errorsText(fn.errors, { dataVar: what })}`);
}

/**
 * Whether a service also refuses to SEND a message that breaks the table (it always refuses to
 * receive one). On by default, and in every test; `BUS_STRICT=0` turns it into a log line in
 * production, so a schema stricter than the code cannot stop meetings.
 */
export function strictSending(): boolean {
  return process.env.BUS_STRICT !== '0';
}

/** The entry a concrete subject belongs to (families match their prefix). */
export function entryOfSubject(subject: string): BusEntry<unknown, unknown> | undefined {
  return BUS_ENTRIES.find((e) =>
    e.subject.endsWith('.>') ? subject.startsWith(e.subject.slice(0, -1)) : e.subject === subject,
  );
}

/** The concrete subject of one message of an entry. */
export function subjectFor<P>(entry: BusEntry<P, any>, payload: P): string {
  if (!entry.subject.endsWith('.>')) return entry.subject;
  if (!entry.subjectOf) throw new Error(`${entry.name}: a family needs subjectOf`);
  return entry.subjectOf(payload);
}

export function versionHeaders(version: number, extra: Record<string, string> = {}): MsgHdrs {
  const h = natsHeaders();
  h.set(VERSION_HEADER, String(version));
  for (const [k, v] of Object.entries(extra)) h.set(k, v);
  return h;
}

/** The version a received message says it follows (1 when it says nothing: senders before versions). */
export function versionOf(h: MsgHdrs | undefined): number {
  const raw = h?.get(VERSION_HEADER);
  return raw && /^\d+$/.test(raw) ? Number(raw) : 1;
}
