// @vitest-environment node
import { existsSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import { BENCHMARK_SAMPLES, calibrateCpu, calibrationOfRuns, calibrationOfSamples, cpuSlowdownFor } from '../../scripts/benchCpu.ts';

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

describe("the calibration of a calibration's own measures", () => {
  it('is the slowdown for the highest measure: a busy host only lowers the index', () => {
    // run L's three measures (2026-12-07), then the same host a few seconds later
    expect(calibrationOfSamples([2186, 2508.4, 2357, 2941.6, 2790])).toEqual({ benchmarkIndex: 2942, samples: [2186, 2508, 2357, 2942, 2790], cpuSlowdown: 10.05, emulates: true });
    expect(calibrationOfSamples([1533]).cpuSlowdown).toBe(4);
  });

  it('gives a host slower than the device no slowdown, says so, and refuses no measure at all', () => {
    expect(calibrationOfSamples([120, 149, 90])).toEqual({ benchmarkIndex: 149, samples: [120, 149, 90], cpuSlowdown: 1, emulates: false });
    expect(calibrationOfSamples([149, 150]).emulates).toBe(true);
    expect(() => calibrationOfSamples([])).toThrow(/no benchmark index/);
  });
});

describe('the calibration of a set of Lighthouse runs', () => {
  it('is the slowdown for the median of the indexes the runs measured', () => {
    expect(calibrationOfRuns([1533.4, 3594, 1300, 1765.6, 2100])).toEqual({ benchmarkIndex: 1766, samples: [1533, 3594, 1300, 1766, 2100], cpuSlowdown: 5, emulates: true });
    expect(calibrationOfRuns([1533, 1300]).benchmarkIndex).toBe(1300); // the lower middle of an even count
  });

  it('gives runs on a host slower than the device no slowdown, says so, and refuses no runs at all', () => {
    expect(calibrationOfRuns([149, 149, 3000])).toEqual({ benchmarkIndex: 149, samples: [149, 149, 3000], cpuSlowdown: 1, emulates: false });
    expect(calibrationOfRuns([150]).emulates).toBe(true);
    expect(() => calibrationOfRuns([])).toThrow(/no Lighthouse run/);
  });
});

/** Debian's Chromium, which the bench and the e2e suite use; `npm test` itself needs no browser. */
const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(!existsSync(CHROMIUM))('calibrating the CPU in Chromium', () => {
  // The machine's load sets the index (these shared machines measured 48 to 3,701), so the test asserts
  // how the calibration follows its own samples, not a figure.
  it("measures Lighthouse's benchmark index seven times and slows down by the highest's multiplier", async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const calibration = await calibrateCpu(browser, 50); // 50 ms apart: the bench's 3 s pauses are for a busy host
      expect(calibration.samples).toHaveLength(BENCHMARK_SAMPLES);
      expect(calibration.benchmarkIndex).toBe(Math.max(...calibration.samples));
      expect(calibration.benchmarkIndex).toBeGreaterThan(0);
      expect(calibration.emulates).toBe(calibration.benchmarkIndex >= 150);
      expect(calibration.cpuSlowdown).toBe(calibration.emulates ? cpuSlowdownFor(calibration.benchmarkIndex) : 1);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
