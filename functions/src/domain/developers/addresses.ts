import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses a webhook may be delivered to (decision 053): public
 * unicast only. Private (10/8, 172.16/12, 192.168/16), loopback, link-local
 * (169.254/16, the cloud's metadata service among them), CGNAT (100.64/10),
 * 0.0.0.0/8, multicast, broadcast and reserved ranges, and in IPv6 the
 * loopback, unique-local (fc00::/7), link-local (fe80::/10) and every range
 * that embeds an IPv4 address (IPv4-mapped `::ffff:x`, NAT64, 6to4, Teredo)
 * are refused; an IPv4-mapped address is judged as the IPv4 address it maps.
 */
export type AddressVerdict = 'public' | 'loopback' | 'refused' | 'invalid';

export function classifyAddress(address: string): AddressVerdict {
  // Zone ids (fe80::1%eth0) name an interface: never a public address.
  if (address.includes('%')) return 'refused';
  if (!ipaddr.isValid(address)) return 'invalid';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress())
    parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast') return 'public';
  if (range === 'loopback') return 'loopback';
  return 'refused';
}

/** Whether a webhook may reach `address`; loopback only when the local cloud allows it. */
export const isAllowedAddress = (address: string, allowLoopback: boolean): boolean => {
  const verdict = classifyAddress(address);
  return verdict === 'public' || (verdict === 'loopback' && allowLoopback);
};

/** A URL's hostname as an IP literal (without IPv6 brackets), or undefined when it is a name. */
export function literalAddress(hostname: string): string | undefined {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return ipaddr.isValid(bare) && (bare.includes(':') || ipaddr.IPv4.isValidFourPartDecimal(bare))
    ? bare
    : undefined;
}
