import { describe, expect, it, vi } from 'vitest';
import { STORAGE_KEYS } from '@/config/site';
import { collectClientMetadata, getBrowserId, saveBrowserId, takeDeviceSnapshot } from '@/services/clientMetadata';

describe('client metadata (spec §3)', () => {
  it('sends submittedAt, clientIP, browserId, userAgent, language, IANA time zone and WIDTHxHEIGHT', () => {
    const metadata = collectClientMetadata('198.51.100.4', new Date('2026-11-22T10:00:00.000Z'));
    expect(metadata).toEqual({
      submittedAt: '2026-11-22T10:00:00.000Z',
      clientIP: '198.51.100.4',
      browserId: expect.stringMatching(/^sonde_[0-9a-f]{16}_[0-9a-z]+$/),
      userAgent: navigator.userAgent,
      browserLanguage: navigator.language,
      timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      screenResolution: `${screen.width}x${screen.height}`,
    });
    // the snapshot holds colour depth, platform and cookies-enabled, which are not sent
    expect(Object.keys(metadata)).not.toContain('colorDepth');
    expect(takeDeviceSnapshot()).toMatchObject({ colorDepth: expect.any(Number), cookiesEnabled: expect.any(Boolean) });
  });

  it('stores the browserId under the product key and reuses it', () => {
    const device = takeDeviceSnapshot();
    const first = getBrowserId(device, 1_000);
    expect(localStorage.getItem(STORAGE_KEYS.browserId)).toBeNull(); // reading stores nothing
    saveBrowserId(first);
    const second = getBrowserId(device, 9_999_999);
    expect(second).toBe(first);
    expect(localStorage.getItem(STORAGE_KEYS.browserId)).toBe(first);
  });

  it('hashes user agent, language, time-zone offset and screen size into the id', () => {
    const device = takeDeviceSnapshot();
    const a = getBrowserId(device, 1_000);
    const b = getBrowserId({ ...device, screenWidth: device.screenWidth + 1 }, 1_000);
    expect(a.split('_')[1]).not.toBe(b.split('_')[1]);
    expect(a.split('_')[2]).toBe((1_000).toString(36));
  });

  it('makes a temporary id and logs when storage throws (spec §8)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    });
    const id = getBrowserId(takeDeviceSnapshot(), 42);
    expect(id).toMatch(/^sonde_tmp_[0-9a-f]{16}_16$/);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('temporary browserId'), expect.any(DOMException));
    const setItem = vi.spyOn(Storage.prototype, 'setItem');
    saveBrowserId(id);
    expect(setItem).not.toHaveBeenCalled(); // a temporary id is not stored
  });

  it('logs and carries on when the browserId cannot be stored (spec §8)', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new DOMException('quota', 'QuotaExceededError');
    });
    expect(() => saveBrowserId('sonde_0123456789abcdef_lx')).not.toThrow();
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('could not store the browserId'), expect.any(DOMException));
  });
});
