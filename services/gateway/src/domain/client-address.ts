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
        if (!/^\d{1,3}$/.test(bits) || prefix > (family === 4 ? 32 : 128))
          throw new Error(`not an address or CIDR: ${raw}`);
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
export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | string[] | undefined,
  trusted: TrustedProxies,
): string {
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

/** The 8 groups of an IPv6 address (`::` expanded; an embedded IPv4 tail read as two groups). */
function ipv6Groups(address: string): number[] {
  let a = address.toLowerCase().split('%')[0];
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number);
    a = `${a.slice(0, v4.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.includes('::') ? a.split('::') : [a, null];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === null ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

/**
 * The key an address's budgets are counted under: an IPv4 address itself, an IPv6 address by its
 * network of `v6Prefix` bits (`2001:db8:1:2::/64`). One IPv6 client is usually given a whole /64
 * and may send from any address in it; counted by the address, it would have unlimited budgets.
 */
export function addressBucket(address: string, v6Prefix: number): string {
  if (isIP(address) !== 6) return address;
  const groups = ipv6Groups(address).map((g, i) => {
    const keep = Math.min(16, Math.max(0, v6Prefix - i * 16));
    return keep === 0 ? 0 : g & (0xffff << (16 - keep)) & 0xffff;
  });
  // Compressed the usual way: the longest run of two or more zero groups becomes `::`.
  let best = { at: -1, len: 1 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.len) best = { at: i, len: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = groups.map((g) => g.toString(16));
  const text =
    best.at < 0 ? hex.join(':') : `${hex.slice(0, best.at).join(':')}::${hex.slice(best.at + best.len).join(':')}`;
  return `${text}/${v6Prefix}`;
}
