import { afterEach, describe, expect, it } from 'vitest';
import { TEAM_ENROLL_PATH } from '#shared/team';
import { VERIFY_PAGE_PATH } from '#shared/verification';
import { decodedFragment, hasStrippedFragment, isVerificationFragment, stripVerificationFragment, takeStrippedFragment } from '@/utils/verificationFragment';

const TOKEN = 'A'.repeat(20) + '_-' + 'b'.repeat(21); // 43 characters of base64url

/** Opens `address` in this jsdom window, as a link would, and strips it as src/main.tsx does at start. */
function open(address: string) {
  window.history.replaceState({ usr: { kept: true } }, '', address);
  const stripped = stripVerificationFragment(window.location, window.history);
  return { stripped, address: `${window.location.pathname}${window.location.search}${window.location.hash}`, state: window.history.state as unknown };
}

afterEach(() => {
  takeStrippedFragment();
  takeStrippedFragment(TEAM_ENROLL_PATH);
  window.history.replaceState(null, '', '/');
});

describe('a verification fragment leaves the address bar on every route (11 CCR §7060)', () => {
  const spellings = [
    `#token=${TOKEN}`,
    `#%74oken=${TOKEN}`,
    `#%74%6F%6B%65%6E%3D${TOKEN}`,
    `#%2574oken=${TOKEN}`, // encoded twice
    `#TOKEN=${TOKEN}`,
    `#from=mail&token=${TOKEN}`,
    `#token=not-a-token`, // cut short: it goes too
  ];
  const routes = [VERIFY_PAGE_PATH, '/privacy-request/verify.html', '/', '/terms?ref=mail', '/no-such-page', TEAM_ENROLL_PATH, '/team', '/team/requests/x'];

  for (const route of routes) {
    for (const hash of spellings) {
      it(`${route}${hash.slice(0, 24)}…: the address keeps its path and query, without the fragment; the history state is kept`, () => {
        const { stripped, address, state } = open(`${route}${hash}`);
        expect(stripped).toBe(true);
        expect(address).toBe(route);
        expect(address).not.toContain(TOKEN);
        expect(state).toEqual({ usr: { kept: true } });
      });
    }
  }

  it('the verification page gets what its fragment carried, once (null for a link cut short); another route keeps nothing', () => {
    open(`${VERIFY_PAGE_PATH}#%74oken=${TOKEN}`);
    expect(takeStrippedFragment()).toEqual({ token: TOKEN });
    expect(takeStrippedFragment()).toBeNull();
    open(`${VERIFY_PAGE_PATH}#token=${TOKEN.slice(0, 30)}`); // cut short: stripped, no token
    expect(takeStrippedFragment()).toEqual({ token: null });
    open(`/terms#token=${TOKEN}`);
    expect(takeStrippedFragment()).toBeNull();
  });

  it("the team console's enrollment page gets its link's token, once; the verification page never gets it, nor the other way round", () => {
    open(`${TEAM_ENROLL_PATH}#token=${TOKEN}`);
    expect(window.location.href).not.toContain(TOKEN);
    expect(hasStrippedFragment(TEAM_ENROLL_PATH)).toBe(true);
    expect(takeStrippedFragment()).toBeNull(); // the verification page's
    expect(takeStrippedFragment(TEAM_ENROLL_PATH)).toEqual({ token: TOKEN });
    expect(hasStrippedFragment(TEAM_ENROLL_PATH)).toBe(false);
    expect(takeStrippedFragment(TEAM_ENROLL_PATH)).toBeNull();
    open(`${TEAM_ENROLL_PATH}#%74oken=${TOKEN.slice(0, 40)}`); // cut short: stripped, no token
    expect(takeStrippedFragment(TEAM_ENROLL_PATH)).toEqual({ token: null });
    open(`${VERIFY_PAGE_PATH}#token=${TOKEN}`);
    expect(takeStrippedFragment(TEAM_ENROLL_PATH)).toBeNull();
    expect(takeStrippedFragment()).toEqual({ token: TOKEN });
    open(`/team#token=${TOKEN}`); // the console's other pages keep nothing
    expect(hasStrippedFragment('/team')).toBe(false);
    expect(takeStrippedFragment(TEAM_ENROLL_PATH)).toBeNull();
  });

  it('any other fragment stays: #faq, #pricing, a malformed escape', () => {
    for (const hash of ['#faq', '#pricing', '#%zz', '#tokens', '#broken-token', '']) {
      const { stripped, address } = open(`/${hash}`);
      expect(stripped).toBe(false);
      expect(address).toBe(`/${hash}`);
      expect(isVerificationFragment(hash)).toBe(false);
    }
  });

  it('decodes escapes until none is left, and stops', () => {
    expect(decodedFragment('#%25252574oken')).toBe('#token');
    expect(decodedFragment('#%zz%41')).toBe('#%zzA');
  });
});
