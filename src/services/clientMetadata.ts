import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { BROWSER_ID_PREFIX, STORAGE_KEYS } from '@/config/site';
import type { ClientMetadata } from '#shared/submission';

/**
 * What the browser tells about the device (spec §3). Colour depth, platform and cookies-enabled are
 * kept here but not sent.
 */
export interface DeviceSnapshot {
  userAgent: string;
  language: string;
  /** IANA time-zone name */
  timezone: string;
  /** minutes behind UTC, as `Date#getTimezoneOffset` gives them */
  timezoneOffsetMinutes: number;
  /** CSS pixels */
  screenWidth: number;
  /** CSS pixels */
  screenHeight: number;
  /** bits per pixel */
  colorDepth: number;
  platform: string;
  cookiesEnabled: boolean;
}

/** Reads the device snapshot from `navigator`, `screen` and `Intl` (spec §3). */
export function takeDeviceSnapshot(): DeviceSnapshot {
  return {
    userAgent: navigator.userAgent,
    language: navigator.language,
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
    timezoneOffsetMinutes: new Date().getTimezoneOffset(),
    screenWidth: window.screen.width,
    screenHeight: window.screen.height,
    colorDepth: window.screen.colorDepth,
    platform: navigator.platform,
    cookiesEnabled: navigator.cookieEnabled,
  };
}

/** First 16 hex digits of SHA-256 over the device's user agent, language, time-zone offset and screen size. */
function deviceHash(device: DeviceSnapshot): string {
  const material = [device.userAgent, device.language, device.timezoneOffsetMinutes, `${device.screenWidth}x${device.screenHeight}`].join('|');
  return bytesToHex(sha256(utf8ToBytes(material))).slice(0, 16);
}

/**
 * The visitor's browserId (spec §3): the one stored in localStorage under `STORAGE_KEYS.browserId`, or a
 * new `sonde_<hash>_<timestamp base 36>`. Reads only; {@link saveBrowserId} stores it.
 * When storage throws (private mode, blocked storage), the failure is logged (spec §8) and a temporary
 * id `sonde_tmp_<hash>_<timestamp>` is returned.
 * @param device - the snapshot whose fields feed the hash
 * @param now - ms since the epoch, for the timestamp part
 */
export function getBrowserId(device: DeviceSnapshot, now: number = Date.now()): string {
  const hash = deviceHash(device);
  try {
    return window.localStorage.getItem(STORAGE_KEYS.browserId) ?? `${BROWSER_ID_PREFIX}_${hash}_${now.toString(36)}`;
  } catch (error) {
    console.warn('[browser-id] local storage is unavailable; using a temporary browserId', error);
    return `${BROWSER_ID_PREFIX}_tmp_${hash}_${now.toString(36)}`;
  }
}

/**
 * Stores the browserId so that later submissions reuse it (spec §3). A temporary id is not stored.
 * Never throws: a storage failure is logged (spec §8).
 */
export function saveBrowserId(id: string): void {
  if (id.startsWith(`${BROWSER_ID_PREFIX}_tmp_`)) return;
  try {
    window.localStorage.setItem(STORAGE_KEYS.browserId, id);
  } catch (error) {
    console.warn('[browser-id] could not store the browserId', error);
  }
}

/**
 * The client metadata added to a submission (spec §3). Reads the browser only: the browserId is
 * stored by {@link saveBrowserId}.
 * @param clientIP - from the IP lookup (spec §7.2), `null` when it failed or timed out
 * @param now - the submission time
 */
export function collectClientMetadata(clientIP: string | null, now: Date = new Date()): ClientMetadata {
  const device = takeDeviceSnapshot();
  return {
    submittedAt: now.toISOString(),
    clientIP,
    browserId: getBrowserId(device, now.getTime()),
    userAgent: device.userAgent,
    browserLanguage: device.language,
    timezone: device.timezone,
    screenResolution: `${device.screenWidth}x${device.screenHeight}`,
  };
}
