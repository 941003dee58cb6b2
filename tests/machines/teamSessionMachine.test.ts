// The console's session and enrollment charts, asked with XState's pure functions: what each failure says,
// and which events each state takes.
import { describe, expect, it } from 'vitest';
import { getNextSnapshot, initialTransition } from 'xstate';
import { enrollFailureText, ENROLL_CANCELLED, teamEnrollMachine } from '#machines/teamEnrollMachine';
import {
  PASSKEYS_UNSUPPORTED,
  SESSION_ENDED,
  SIGN_IN_CANCELLED,
  SIGN_IN_RATE_LIMITED,
  SIGN_IN_REFUSED,
  signInFailureText,
  TEAM_OFFLINE,
  teamSessionMachine,
} from '#machines/teamSessionMachine';
import { TeamApiError } from '@/services/teamApi';

const named = (name: string) => Object.assign(new Error('browser'), { name });
const member = { email: 'kim@sonde.dev', name: null };

describe('teamSessionMachine', () => {
  it('says each sign-in failure in the member\'s words', () => {
    expect(signInFailureText(named('NotAllowedError'))).toBe(SIGN_IN_CANCELLED);
    expect(signInFailureText(named('AbortError'))).toBe(SIGN_IN_CANCELLED);
    expect(signInFailureText(new TeamApiError('no', 401))).toBe(SIGN_IN_REFUSED);
    expect(signInFailureText(new TeamApiError('later', 429))).toBe(SIGN_IN_RATE_LIMITED);
    expect(signInFailureText(new TeamApiError('offline', null))).toBe(TEAM_OFFLINE);
    expect(signInFailureText(new TeamApiError('boom', 503))).toBe('Sign-in failed (error 503). Try again.');
    expect(signInFailureText(new Error('WebAuthn is not supported in this browser'))).toBe(PASSKEYS_UNSUPPORTED);
  });

  it('starts by checking the session, and takes no sign-in or sign-out while it does', () => {
    const [start] = initialTransition(teamSessionMachine);
    expect(start.value).toBe('checking');
    expect(start.can({ type: 'session.signIn' })).toBe(false);
    expect(start.can({ type: 'session.signOut' })).toBe(false);
  });

  it('a 401 while signed in (idle or absolute limit, removed member) returns to the sign-in screen, saying so, without the member', () => {
    const [start] = initialTransition(teamSessionMachine);
    const signedIn = getNextSnapshot(teamSessionMachine, start, { type: 'session.enrolled', member });
    expect(signedIn.value).toEqual({ signedIn: 'active' });
    const ended = getNextSnapshot(teamSessionMachine, signedIn, { type: 'session.ended' });
    expect(ended.value).toEqual({ signedOut: 'idle' });
    expect(ended.context).toEqual({ member: null, message: SESSION_ENDED });
  });
});

describe('teamEnrollMachine', () => {
  it('without a token asks for a new link; with one, offers the button', () => {
    expect(initialTransition(teamEnrollMachine, { token: null })[0].value).toBe('noToken');
    expect(initialTransition(teamEnrollMachine, { token: 'x'.repeat(43) })[0].value).toBe('ready');
  });

  it('says each failure another attempt may fix', () => {
    expect(enrollFailureText(named('NotAllowedError'))).toBe(ENROLL_CANCELLED);
    expect(enrollFailureText(new TeamApiError('later', 429))).toBe(SIGN_IN_RATE_LIMITED);
    expect(enrollFailureText(new TeamApiError('offline', null))).toBe(TEAM_OFFLINE);
  });
});
