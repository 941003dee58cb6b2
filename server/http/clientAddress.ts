import { isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';
import ipaddr from 'ipaddr.js';

/**
 * The prefix an IPv6 client is counted by, in bits: a /64, the smallest network a provider routes to one
 * subscriber (RFC 7421), who can use every address in it. Counted by its full address, one client would
 * have 2^64 fresh addresses to send from.
 */
export const IPV6_CLIENT_PREFIX_BITS = 64;

/**
 * The client a per-client limit counts (the submission rate limit, submissions under way, verification
 * calls): an IPv4 address as it is (an IPv4-mapped IPv6 address `::ffff:192.0.2.1` as `192.0.2.1`), an
 * IPv6 address as its /64 network (`2001:db8:1:2::/64`), anything else (`unknown`) unchanged.
 */
export function clientKeyOf(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/${IPV6_CLIENT_PREFIX_BITS}`).toString()}/${IPV6_CLIENT_PREFIX_BITS}`;
}

/**
 * The IP address a request came from. Behind trusted proxies (`trustProxy`, `SONDE_TRUST_PROXY`), each
 * appends the address it received from to `X-Forwarded-For`: the entry `hops` from the right
 * (`SONDE_TRUSTED_PROXY_HOPS`) is the one the first of them wrote, while any entry left of it is the
 * client's own text. Without a usable entry: the socket's peer.
 * @returns an IPv4 or IPv6 address as written, or `unknown` when `app.fetch` was called without a Node
 *   socket (a serverless host, a test). Never throws.
 */
export function peerAddressOf(c: Context, proxies: { trustProxy: boolean; hops: number }): string {
  if (proxies.trustProxy) {
    const entries = c.req.header('x-forwarded-for')?.split(',').map((entry) => entry.trim()) ?? [];
    const appended = entries[entries.length - proxies.hops];
    if (appended !== undefined && isIP(appended) !== 0) return appended;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown';
  }
}
