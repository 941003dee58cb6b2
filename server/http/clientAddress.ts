import ipaddr from 'ipaddr.js';

/**
 * The prefix an IPv6 client is counted by, in bits: a /64, the smallest network a provider routes to one
 * subscriber (RFC 7421), who can use every address in it. Counted by its full address, one client would
 * have 2^64 fresh addresses to send from.
 */
export const IPV6_CLIENT_PREFIX_BITS = 64;

/**
 * The client a per-client limit counts (the submission rate limit, unfinished uploads, verification
 * calls): an IPv4 address as it is (an IPv4-mapped IPv6 address `::ffff:192.0.2.1` as `192.0.2.1`), an
 * IPv6 address as its /64 network (`2001:db8:1:2::/64`), anything else (`unknown`) unchanged.
 */
export function clientKeyOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${IPV6_CLIENT_PREFIX_BITS}`).toString()}/${IPV6_CLIENT_PREFIX_BITS}`;
}
