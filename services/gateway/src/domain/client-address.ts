import { BlockList, isIP } from 'node:net';

/** A list of CIDRs (`10.0.0.0/8, fd00::/8, 127.0.0.1`) the gateway trusts to tell it the client's address. */
export class TrustedProxies {
  private readonly list = new BlockList();
  readonly empty: boolean;

  /** Throws on an entry that is not an address or a CIDR. */
  constructor(cidrs: readonly string[]) {
    for (const raw of cidrs) {
      const [addr, bits, extra] = raw.split('/');
      const family = isIP(addr);
      if (!family || extra !== undefined) throw new Error(`not an address or CIDR: ${raw}`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (bits === undefined) this.list.addAddress(addr, type);
      else {
        const prefix = Number(bits);
        if (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128)) throw new Error(`not an address or CIDR: ${raw}`);
        this.list.addSubnet(addr, prefix, type);
      }
    }
    this.empty = cidrs.length === 0;
  }

  /** Parses the TRUSTED_PROXIES value: CIDRs separated by commas or spaces. */
  static parse(value: string | null): TrustedProxies {
    return new TrustedProxies((value ?? '').split(/[\s,]+/).filter(Boolean));
  }

  has(address: string): boolean {
    const a = normalize(address);
    const family = isIP(a);
    return family !== 0 && this.list.check(a, family === 4 ? 'ipv4' : 'ipv6');
  }
}

/** `::ffff:10.1.2.3` (an IPv4 client on a dual-stack socket) is the IPv4 address it carries. */
function normalize(address: string): string {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1] : address;
}

/**
 * The client's address: the connection's peer, unless that peer is a trusted proxy; then the
 * X-Forwarded-For entries are read from the right (each proxy appends the address it saw) for as
 * long as each hop is trusted. The first untrusted hop is the client: anything to its left was
 * written by the client itself and could be forged.
 */
export function clientAddress(peer: string | undefined, forwardedFor: string | string[] | undefined, trusted: TrustedProxies): string {
  let current = normalize(peer ?? 'unknown');
  if (trusted.empty || !forwardedFor) return current;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',').map((h) => h.trim());
  while (trusted.has(current) && hops.length > 0) {
    const next = normalize(hops.pop()!);
    // A hop that is not an address (garbage from the left of the header) ends the walk.
    if (!isIP(next)) break;
    current = next;
  }
  return current;
}
