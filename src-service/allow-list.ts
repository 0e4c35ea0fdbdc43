// The IP allow-list: single addresses or CIDR ranges, IPv4 and IPv6.
import { BlockList, isIP } from 'node:net';

export const LOOPBACK_ALLOW = ['127.0.0.0/8', '::1/128'];

export class AllowList {
  private readonly list = new BlockList();

  /** Throws on an entry that is neither an IP nor a CIDR range. */
  constructor(entries: readonly string[]) {
    for (const raw of entries) {
      const entry = raw.trim();
      const [address = '', prefixText] = entry.split('/');
      const family = isIP(address);
      if (family === 0) throw new Error(`allow-list: not an IP or CIDR: "${raw}"`);
      const type = family === 4 ? 'ipv4' : 'ipv6';
      if (prefixText === undefined) {
        this.list.addAddress(address, type);
        continue;
      }
      const prefix = Number(prefixText);
      const max = family === 4 ? 32 : 128;
      if (!/^\d+$/.test(prefixText) || prefix > max) {
        throw new Error(`allow-list: bad prefix length in "${raw}"`);
      }
      this.list.addSubnet(address, prefix, type);
    }
  }

  /** True when the remote address is allowed; IPv4-mapped IPv6 is checked as IPv4. */
  allows(remote: string | undefined): boolean {
    if (!remote) return false;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(remote);
    const address = mapped ? (mapped[1] as string) : remote;
    const family = isIP(address);
    if (family === 0) return false;
    return this.list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}
