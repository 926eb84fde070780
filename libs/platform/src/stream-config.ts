import { BUS_STREAMS, type BusStream } from '@mm/contract';
import type { EnvReader } from './env-reader';

/**
 * Each JetStream stream's limits, from the environment (the bus setup step makes or updates the
 * streams with them: the bus-setup Job, or a service given the operator's password, libs/bus):
 *   STREAM_REPLICAS            copies of every stream (1; 3 on a three-node cluster)
 *   STREAM_DISCARD             old (drop the oldest when full; default) or new (refuse new messages)
 *   STREAM_MAX_BYTES           every stream's size cap in bytes (-1: none, the default)
 *   STREAM_MAX_BYTES_<STREAM>  one stream's cap (STREAM_MAX_BYTES_PIPELINE=10737418240)
 *   STREAM_MAX_AGE_DAYS_<STREAM>  one stream's age limit (default: the bus table's, RECORDINGS 31, PIPELINE 7)
 */
export interface StreamSettings {
  replicas: number;
  discard: 'old' | 'new';
  maxBytes: Record<BusStream, number>;
  maxAgeDays: Record<BusStream, number>;
}

export function readStreamSettings(r: EnvReader): StreamSettings {
  const env = r.environment;
  const names = Object.keys(BUS_STREAMS) as BusStream[];
  for (const key of Object.keys(env)) {
    const m = /^STREAM_(?:MAX_BYTES|MAX_AGE_DAYS)_(\w+)$/.exec(key);
    if (m && !names.includes(m[1] as BusStream)) r.problem(`${key} names no stream (streams: ${names.join(', ')})`);
  }
  const replicas = r.num('STREAM_REPLICAS', 1, 1);
  if (!Number.isInteger(replicas) || replicas > 5) r.problem('STREAM_REPLICAS must be 1 to 5');
  const allBytes = r.num('STREAM_MAX_BYTES', -1, -1);
  const per = <T>(f: (s: BusStream) => T) => Object.fromEntries(names.map((s) => [s, f(s)])) as Record<BusStream, T>;
  return {
    replicas,
    discard: r.oneOf('STREAM_DISCARD', ['old', 'new'] as const, 'old'),
    maxBytes: per((s) => Math.floor(r.num(`STREAM_MAX_BYTES_${s}`, allBytes, -1))),
    maxAgeDays: per((s) => r.num(`STREAM_MAX_AGE_DAYS_${s}`, BUS_STREAMS[s].maxAgeDays, 0)),
  };
}
