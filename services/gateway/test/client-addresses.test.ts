import { Writable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import pino from 'pino';
import { serviceRegistry } from '@mm/http';
import { addressBucket, TrustedProxies } from '../src/domain/client-address';
import { ClientAddresses } from '../src/services/client-addresses';

/** Issue 25: X-Forwarded-For no proxy list lets the gateway believe is said once; IPv6 budgets per network. */
function request(
  peer: string,
  forwardedFor?: string,
): Pick<IncomingMessage, 'headers'> & { socket: { remoteAddress?: string } } {
  return { socket: { remoteAddress: peer }, headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {} };
}

function capture() {
  const lines: { msg: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, logger: pino({ level: 'info' }, stream) };
}

async function untrustedCount(): Promise<number> {
  const metric = await serviceRegistry('gateway').getSingleMetric('gateway_forwarded_for_untrusted_total')?.get();
  return metric?.values.reduce((n, v) => n + v.value, 0) ?? 0;
}

describe('ClientAddresses', () => {
  it('says once in the log, and counts in /metrics, X-Forwarded-For arriving while TRUSTED_PROXIES is unset', async () => {
    const { lines, logger } = capture();
    const addresses = new ClientAddresses(TrustedProxies.parse(null), logger, 64);
    const before = await untrustedCount();
    expect(addresses.of(request('10.0.0.5', '198.51.100.1'))).toBe('10.0.0.5');
    expect(addresses.of(request('10.0.0.5', '198.51.100.2'))).toBe('10.0.0.5');
    expect(addresses.of(request('10.0.0.6'))).toBe('10.0.0.6');
    await new Promise((r) => setImmediate(r));
    expect(lines.filter((l) => /TRUSTED_PROXIES/.test(l.msg))).toHaveLength(1);
    expect((await untrustedCount()) - before).toBe(2);
  });

  it('stays quiet when the proxy is trusted', async () => {
    const { lines, logger } = capture();
    const addresses = new ClientAddresses(TrustedProxies.parse('10.0.0.0/8'), logger, 64);
    expect(addresses.of(request('10.0.0.5', '198.51.100.1'))).toBe('198.51.100.1');
    await new Promise((r) => setImmediate(r));
    expect(lines).toHaveLength(0);
  });
});

describe('addressBucket', () => {
  it('counts IPv6 by its /64 network, IPv4 by the address', () => {
    expect(addressBucket('2001:db8:1:2:aaaa::1', 64)).toBe(addressBucket('2001:db8:1:2:ffff:1:2:3', 64));
    expect(addressBucket('2001:db8:1:2::1', 64)).not.toBe(addressBucket('2001:db8:1:3::1', 64));
    expect(addressBucket('2001:db8:1:2::1', 64)).toBe('2001:db8:1:2::/64');
    expect(addressBucket('203.0.113.7', 64)).toBe('203.0.113.7');
  });

  it('takes another prefix length, 128 being the whole address', () => {
    expect(addressBucket('2001:db8:1:2:aaaa::1', 48)).toBe('2001:db8:1::/48');
    expect(addressBucket('2001:db8:1:2:aaaa::1', 128)).toBe('2001:db8:1:2:aaaa::1/128');
    expect(addressBucket('2001:db8::1', 56)).toBe(addressBucket('2001:db8:0:ff::1', 56));
  });
});
