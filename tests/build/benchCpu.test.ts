// @vitest-environment node
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { calibrateCpu, cpuSlowdownFor } from '../../scripts/benchCpu.ts';

// The bench's CPU calibration (DESIGN.md §3): Lighthouse's calculator, at the points its own docs name
// (docs/throttling.md: 4× at 1,533, 3× at 1,300, 2× at 800, 1× at 150) and at its boundaries.
describe('the CPU slowdown for a benchmark index', () => {
  it('is 4× for the device the mobile preset assumes, and +1× per 233 above 1,300', () => {
    expect(cpuSlowdownFor(1533)).toBe(4);
    expect(cpuSlowdownFor(1766)).toBe(5);
    expect(cpuSlowdownFor(1300)).toBe(3);
    expect(cpuSlowdownFor(3594)).toBe(12.85);
  });

  it('is 2 + (index − 800)/500 from 800 to 1,300, and 1 + (index − 150)/650 from 150 to 800', () => {
    expect(cpuSlowdownFor(1299)).toBe(3);
    expect(cpuSlowdownFor(1050)).toBe(2.5);
    expect(cpuSlowdownFor(800)).toBe(2);
    expect(cpuSlowdownFor(799)).toBe(2);
    expect(cpuSlowdownFor(475)).toBe(1.5);
    expect(cpuSlowdownFor(150)).toBe(1);
  });

  it('refuses a host slower than the device, and an index that is not a number', () => {
    expect(() => cpuSlowdownFor(149)).toThrow(/too slow/);
    expect(() => cpuSlowdownFor(Number.NaN)).toThrow(/too slow/);
  });
});

/** Debian's Chromium, which the bench and the e2e suite use; `npm test` itself needs no browser. */
const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('calibrating the CPU in Chromium', () => {
  // The machine's load sets the index (these shared machines measured 48 to 3,701), so the test asserts
  // how the calibration follows its own samples, not a figure.
  it("measures Lighthouse's benchmark index three times and slows down by the median's multiplier", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const calibration = await calibrateCpu(browser);
      expect(calibration.samples).toHaveLength(3);
      expect(calibration.benchmarkIndex).toBe([...calibration.samples].sort((a, b) => a - b)[1]);
      expect(calibration.benchmarkIndex).toBeGreaterThan(0);
      expect(calibration.emulates).toBe(calibration.benchmarkIndex >= 150);
      expect(calibration.cpuSlowdown).toBe(calibration.emulates ? cpuSlowdownFor(calibration.benchmarkIndex) : 1);
    } finally {
      await browser.close();
    }
  }, 30_000);
});
