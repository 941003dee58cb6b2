import { IP_LOOKUP_URL } from '@/config/site';

/**
 * Asks the public IP-lookup service for the visitor's IP (spec §7.2): GET `VITE_IP_LOOKUP_URL`
 * (JSON output), reading the field `ip`.
 *
 * The 5000 ms time-out is the `ipLookupTimeout` delay of the machines that invoke this, which stop
 * the actor and so abort `signal`.
 * @param signal - aborts the request (the invoking actor stopping, or its time-out)
 * @returns the IP as a string, or `null` on any failure (network, status, body), which is logged and
 *   never thrown (spec §8)
 */
export async function lookUpClientIp(signal?: AbortSignal): Promise<string | null> {
  try {
    const response = await fetch(IP_LOOKUP_URL, { headers: { Accept: 'application/json' }, signal });
    if (!response.ok) throw new Error(`HTTP error! status: ${response.status}`);
    const body: unknown = await response.json();
    const ip = (body as { ip?: unknown } | null)?.ip;
    if (typeof ip !== 'string' || ip === '') throw new Error('the response has no `ip` field');
    return ip;
  } catch (error) {
    if (!signal?.aborted) console.warn('[ip-lookup] failed; clientIP will be null', error);
    return null;
  }
}
