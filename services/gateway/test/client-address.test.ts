import { clientAddress, TrustedProxies } from '../src/domain/client-address';

describe('clientAddress', () => {
  const ingress = TrustedProxies.parse('10.0.0.0/8, fd00::/8');

  it('is the peer when no proxy is trusted, whatever X-Forwarded-For says', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', TrustedProxies.parse(''))).toBe('203.0.113.9');
  });

  it('is the peer when the peer is not a trusted proxy', () => {
    expect(clientAddress('203.0.113.9', '198.51.100.1', ingress)).toBe('203.0.113.9');
  });

  it('is the address the trusted ingress saw', () => {
    expect(clientAddress('10.1.2.3', '198.51.100.1', ingress)).toBe('198.51.100.1');
  });

  it('walks trusted hops from the right and stops at the first untrusted one', () => {
    expect(clientAddress('10.1.2.3', '6.6.6.6, 198.51.100.1, 10.9.9.9', ingress)).toBe('198.51.100.1');
  });

  it('ignores what a client wrote to the left of the address the ingress saw', () => {
    expect(clientAddress('10.1.2.3', ['1.1.1.1', '198.51.100.7'], ingress)).toBe('198.51.100.7');
  });

  it('stops at a hop that is not an address', () => {
    expect(clientAddress('10.1.2.3', 'junk, 10.0.0.5', ingress)).toBe('10.0.0.5');
  });

  it('reads IPv4 on a dual-stack socket and IPv6 proxies', () => {
    expect(clientAddress('::ffff:10.1.2.3', '198.51.100.1', ingress)).toBe('198.51.100.1');
    expect(clientAddress('fd00::1', '2001:db8::5', ingress)).toBe('2001:db8::5');
  });

  it('stays the last trusted hop when every hop is trusted', () => {
    expect(clientAddress('10.1.2.3', '10.0.0.1', ingress)).toBe('10.0.0.1');
  });

  it('refuses an entry that is not a CIDR', () => {
    expect(() => TrustedProxies.parse('10.0.0.0/33')).toThrow(/CIDR/);
    expect(() => TrustedProxies.parse('example.com')).toThrow(/CIDR/);
  });
});
