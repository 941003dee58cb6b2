import { fromPromise } from 'xstate';
import { IP_LOOKUP_TIMEOUT_MS } from '../src/config/site';
import { lookUpClientIp } from '../src/services/ipLookup';

/**
 * The IP lookup of spec §7.2 as an actor: resolves to the IP or `null`, never rejects.
 * Stopping the actor (its state is left, e.g. on time-out) aborts the request.
 */
export const lookUpClientIpLogic = fromPromise<string | null>(({ signal }) => lookUpClientIp(signal));

/** Spec §7.2, §9: the IP lookup gives up after 5000 ms. */
export const ipLookupTimeout = IP_LOOKUP_TIMEOUT_MS;

/** Spec §8: 'IP lookup failure: logged and ignored; clientIP is null'. */
export function logIpLookupTimeout(): void {
  console.warn(`[ip-lookup] no answer after ${IP_LOOKUP_TIMEOUT_MS} ms; clientIP will be null`);
}

/**
 * A parallel region shared by both form machines: the IP lookup starts when the visitor first engages
 * with the form (`form.engage`, or at the latest `form.submit`), so that by the time they submit it has
 * usually answered or timed out, and a hanging lookup service does not hold the submission for 5 s.
 * Machines using it name the actor `lookUpClientIp`, the delay `ipLookupTimeout` and the actions
 * `storeClientIp` and `logIpLookupTimeout` in their `setup`.
 */
export const clientIpRegion = {
  description: "Spec §7.2: the visitor's public IP, looked up once per form with a 5-second time-out; null on failure.",
  initial: 'notLookedUp',
  states: {
    notLookedUp: {
      description: 'Nothing has been asked yet: no request leaves the page before the visitor uses the form.',
      on: {
        'form.engage': { target: 'lookingUp', description: 'The visitor starts filling in the form.' },
        'form.submit': { target: 'lookingUp', description: 'Submitted without engaging first (e.g. autofill).' },
      },
    },
    lookingUp: {
      description: 'GET the IP-lookup service, asking for JSON.',
      invoke: {
        id: 'lookUpClientIp',
        src: 'lookUpClientIp',
        onDone: { target: 'settled', actions: 'storeClientIp', description: 'The field ip is read; null on failure.' },
      },
      after: {
        ipLookupTimeout: {
          target: 'settled',
          actions: 'logIpLookupTimeout',
          description: 'Spec §7.2: 5-second time-out; clientIP stays null.',
        },
      },
    },
    settled: { description: 'clientIP is known, or null.' },
  },
} as const;
