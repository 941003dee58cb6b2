import { expect } from 'vitest';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/server';
import type { Db } from '../../server/db/database.ts';
import { addMember, type EnrollmentMailer } from '../../server/db/team.ts';
import { enrollmentMail } from '../../server/outbox/enrollmentMail.ts';
import { softwareAuthenticator, type CeremonyTweaks } from './authenticator.ts';

/** A running server as the team's client reaches it (server/main.ts `RunningServer`), or one URL that is both its address and its origin. */
export type TeamServer = string | { url: string; publicOrigin: string };

/** An answer of the team's API with its parsed JSON body (null for an empty body). */
export interface TeamAnswer {
  status: number;
  headers: Headers;
  json: Record<string, unknown> | null;
}

/**
 * Renders an enrollment link's mail as the command line does (server/cli/team.ts), from
 * `Sonde <hello@sonde.dev>`, its link to `<origin>/team/enroll#token=…`: what the database's `addMember`
 * and `newEnrollmentLink` are given in tests that call them directly.
 */
export function enrollmentMailer(origin = 'http://127.0.0.1'): EnrollmentMailer {
  return ({ deliveryId, to, token, expiresAt }) =>
    enrollmentMail('Sonde <hello@sonde.dev>', { deliveryId, to, link: `${origin}/team/enroll#token=${token}`, expiresAt, siteUrl: origin });
}

/**
 * A client of the team's API (`/api/team/*`) over real HTTP, as the console's page would call it: the
 * page's `Origin`, the session cookie carried by hand (Node's fetch keeps no cookies). Every answer is
 * checked to carry `Cache-Control: no-store`.
 * @param server - the running server: `url`, where it listens (fetched), and `publicOrigin`, the page's
 *   `Origin` and the passkeys' origin (`http://localhost:PORT` on loopback); a string: both
 */
export function teamClient(server: TeamServer) {
  const { url: baseUrl, publicOrigin } = typeof server === 'string' ? { url: server, publicOrigin: server } : server;
  const authenticator = softwareAuthenticator(publicOrigin);
  let cookie: string | undefined;

  const call = async (method: 'GET' | 'POST', path: string, init: { body?: unknown; origin?: string | null; cookie?: string | null } = {}): Promise<TeamAnswer> => {
    const headers: Record<string, string> = {};
    const origin = init.origin === undefined ? publicOrigin : init.origin;
    if (origin !== null) headers.origin = origin;
    const sent = init.cookie === undefined ? cookie : init.cookie;
    if (sent) headers.cookie = sent;
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${baseUrl}/api/team${path}`, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    expect(response.headers.get('cache-control'), `${method} ${path}`).toBe('no-store');
    const text = await response.text();
    const setCookie = response.headers.get('set-cookie');
    if (setCookie?.startsWith('__Host-sonde_team=')) {
      const value = /^__Host-sonde_team=([^;]*)/.exec(setCookie)![1]!;
      cookie = value ? `__Host-sonde_team=${value}` : undefined;
    }
    return { status: response.status, headers: response.headers, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };

  return {
    authenticator,
    call,
    /** the session cookie held, as a `Cookie` header value */
    get cookie() {
      return cookie;
    },
    set cookie(value: string | undefined) {
      cookie = value;
    },
    /** Registers a passkey through the enrollment link's token: options, then the authenticator's answer. */
    async enroll(token: string, tweaks: CeremonyTweaks = {}): Promise<TeamAnswer> {
      const options = await call('POST', '/enroll/options', { body: { token } });
      if (options.status !== 200) return options;
      const response = authenticator.create(options.json!.options as PublicKeyCredentialCreationOptionsJSON, tweaks);
      return call('POST', '/enroll/verify', { body: { token, response } });
    },
    /** Signs in with the passkey held: options, then the authenticator's answer. */
    async signIn(tweaks: CeremonyTweaks = {}): Promise<TeamAnswer> {
      const options = await call('POST', '/signin/options');
      expect(options.status).toBe(200);
      const response = authenticator.get(options.json!.options as PublicKeyCredentialRequestOptionsJSON, tweaks);
      return call('POST', '/signin/verify', { body: { challengeId: options.json!.challengeId, response } });
    },
  };
}

/**
 * A member added by the command line's own function (server/db/team.ts `addMember`) who enrolled a passkey
 * through its link: a {@link teamClient} with a session, as a team member who has just signed up.
 * @param member - `name` is who the timeline names for the member's decisions (null: the email)
 */
export async function enrolledClient(server: TeamServer, db: Db, member: { email?: string; name?: string | null } = {}): Promise<ReturnType<typeof teamClient>> {
  const client = teamClient(server);
  const origin = typeof server === 'string' ? server : server.publicOrigin;
  const link = await addMember(db, { email: member.email ?? 'kim@sonde.dev', name: member.name ?? null, by: 'ops', at: new Date() }, enrollmentMailer(origin));
  expect((await client.enroll(link!.token)).status).toBe(200);
  return client;
}
