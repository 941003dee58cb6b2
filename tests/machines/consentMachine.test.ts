import { describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { STORAGE_KEYS } from '@/config/site';
import { readGpcSignal, readStoredConsent } from '@/services/consentStore';
import { consentMachine, DEFAULT_CONSENT, type AnalyticsEvent, type ConsentInput } from '#machines/consentMachine';

/** The consent machine with its invoked analytics actor replaced by one that records its life and what it receives. */
function start(input: ConsentInput) {
  const analytics: string[] = [];
  const machine = consentMachine.provide({
    actors: {
      analytics: fromCallback<{ type: 'analytics.capture' } & AnalyticsEvent>(({ receive }) => {
        analytics.push('start');
        receive((event) => analytics.push(`capture ${event.event}`));
        return () => analytics.push('stop');
      }),
    },
  });
  return { actor: createActor(machine, { input }).start(), analytics };
}

type Stored = 'none' | 'accepted' | 'rejected' | 'storage throws';

/** Puts the browser in the given state and reads the machine's input from it, as the app does. */
function browserInput(stored: Stored, gpc: boolean): ConsentInput {
  if (stored === 'storage throws') {
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('blocked', 'SecurityError');
    });
  } else if (stored !== 'none') {
    localStorage.setItem(STORAGE_KEYS.consent, stored);
  }
  Object.defineProperty(navigator, 'globalPrivacyControl', { value: gpc, configurable: true });
  return { stored: readStoredConsent(), gpc: readGpcSignal() };
}

describe('consentMachine (spec §4, §7.3)', () => {
  it.each<[Stored, boolean, 'accepted' | 'rejected']>([
    ['none', false, 'accepted'],
    ['accepted', false, 'accepted'],
    ['rejected', false, 'rejected'],
    ['storage throws', false, 'accepted'],
    ['none', true, 'rejected'],
    ['accepted', true, 'rejected'],
    ['rejected', true, 'rejected'],
    ['storage throws', true, 'rejected'],
  ])('stored %s with GPC %s starts %s', (stored, gpc, expected) => {
    const { actor, analytics } = start(browserInput(stored, gpc));
    expect(actor.getSnapshot().value).toBe(expected);
    expect(analytics).toEqual(expected === 'accepted' ? ['start'] : []);
  });

  it('a first visit without GPC is tracked without storing anything: the spec is an opt-out model', () => {
    const { actor, analytics } = start({ stored: null, gpc: false });
    expect(DEFAULT_CONSENT).toBe('accepted');
    expect(actor.getSnapshot().value).toBe('accepted');
    expect(analytics).toEqual(['start']);
    // the default is not a choice of the visitor's: nothing is written until they opt out or submit
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBeNull();
  });

  it("opting out stores 'rejected' and turns analytics off; capture then sends nothing", () => {
    const { actor, analytics } = start({ stored: null, gpc: false });
    actor.send({ type: 'analytics.capture', event: 'before', properties: {} });
    actor.send({ type: 'consent.optOut' });
    actor.send({ type: 'analytics.capture', event: 'after', properties: {} });
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBe('rejected');
    expect(analytics).toEqual(['start', 'capture before', 'stop']);
  });

  it("an invite submission stores 'accepted', turns analytics back on, then sends its event", () => {
    const { actor, analytics } = start({ stored: 'rejected', gpc: false });
    actor.send({ type: 'consent.accept', analyticsEvent: { event: 'invite_request_submitted', properties: {} } });
    expect(actor.getSnapshot().value).toBe('accepted');
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBe('accepted');
    expect(analytics).toEqual(['start', 'capture invite_request_submitted']);
  });

  it("stores 'accepted' on submission when tracking was already allowed by default", () => {
    const { actor } = start({ stored: null, gpc: false });
    actor.send({ type: 'consent.accept' });
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBe('accepted');
  });

  it('with GPC on, a submission neither turns analytics on nor stores anything', () => {
    const { actor, analytics } = start({ stored: null, gpc: true });
    actor.send({ type: 'consent.accept', analyticsEvent: { event: 'invite_request_submitted', properties: {} } });
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(localStorage.getItem(STORAGE_KEYS.consent)).toBeNull();
    expect(analytics).toEqual([]);
  });

  it('keeps working for the page when storage throws on write, and logs it (spec §8)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    const { actor } = start({ stored: null, gpc: false });
    actor.send({ type: 'consent.optOut' });
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("could not store 'rejected'"), expect.any(DOMException));
  });
});
