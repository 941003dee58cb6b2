// The bench's CPU calibration (DESIGN.md §3, §4): Lighthouse's mobile preset slows the CPU down 4×, which
// emulates its mobile device only on a host whose benchmark index is about 1,533. The index of these
// shared machines moved from 1,193 to 3,701 between days, so the bench measures it in the same run and
// slows the CPU down by what Lighthouse's own calculator gives for it.
import type { Browser } from '@playwright/test';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';

/** Benchmark indexes measured per calibration: their median is used (one measure takes about 1 s). */
const BENCHMARK_SAMPLES = 3;
/** Below this benchmark index Lighthouse's calculator has no slowdown: the host is slower than the emulated device. */
export const SLOWEST_CALIBRATED_INDEX = 150;

/**
 * The CPU slowdown that makes a host of `benchmarkIndex` emulate the device of Lighthouse's mobile preset
 * (its 4× at an index of 1,533), by Lighthouse's CPU throttling calculator, which Lighthouse's package does
 * not export: https://github.com/patrickhulce/lighthouse-cpu-throttling-calculator (pages/index.js),
 * linked from Lighthouse's docs/throttling.md ("Calibrating the CPU slowdown"). Piecewise linear:
 * 3 + (index − 1,300)/233 from 1,300; 2 + (index − 800)/500 from 800; 1 + (index − 150)/650 from 150.
 * @param benchmarkIndex - Lighthouse's benchmark index of the host (`lhr.environment.benchmarkIndex`)
 * @returns the multiplier for `throttling.cpuSlowdownMultiplier` (and CDP's Emulation.setCPUThrottlingRate),
 *   rounded to 2 decimals
 * @throws when the index is not a number or below 150 (too slow a host to emulate the device)
 */
export function cpuSlowdownFor(benchmarkIndex: number): number {
  if (!Number.isFinite(benchmarkIndex) || benchmarkIndex < SLOWEST_CALIBRATED_INDEX) {
    throw new Error(`a benchmark index of ${benchmarkIndex} is too slow to emulate Lighthouse's mobile device`);
  }
  const multiplier = benchmarkIndex >= 1300 ? 3 + (benchmarkIndex - 1300) / 233
    : benchmarkIndex >= 800 ? 2 + (benchmarkIndex - 800) / 500
      : 1 + (benchmarkIndex - 150) / 650;
  return Math.round(multiplier * 100) / 100;
}

/**
 * One calibration: the benchmark indexes measured, their median, and the slowdown for it; `emulates` false
 * when the host was slower than the device (index below 150), and then the slowdown is 1 (none).
 */
export interface Calibration {
  benchmarkIndex: number;
  samples: number[];
  cpuSlowdown: number;
  emulates: boolean;
}

/**
 * Measures the host's benchmark index now, with Lighthouse's own page function (`computeBenchmarkIndex`,
 * the one behind `lhr.environment.benchmarkIndex`), run as Lighthouse runs it: in a blank page of
 * `browser`, before anything loads. The median of BENCHMARK_SAMPLES measures, each in a fresh page.
 * @param browser - a Chromium launched with the bench's flags
 * @returns the index (rounded), every sample, and {@link cpuSlowdownFor} the index; a host slower than the
 *   device (a loaded machine) gets no slowdown and `emulates: false`, which the bench reports as a failed line
 */
export async function calibrateCpu(browser: Browser): Promise<Calibration> {
  const samples: number[] = [];
  for (let i = 0; i < BENCHMARK_SAMPLES; i += 1) {
    const page = await browser.newPage();
    try {
      samples.push(Math.round(await page.evaluate(pageFunctions.computeBenchmarkIndex)));
    } finally {
      await page.close();
    }
  }
  return calibrationOfRuns(samples);
}

/**
 * The calibration for a set of benchmark indexes (a calibration's samples, or those Lighthouse measured in
 * a set of runs, each a second before its page loaded): the slowdown for their median. On these shared
 * machines one index sample moved by 2× within a minute while the page's own tasks did not follow it:
 * re-auditing the same 27 runs of `/` (2026-12-01), each at the slowdown for its own index, spread the
 * page's TBT over 95–890 ms (interquartile range 292 ms), and at one slowdown for all over 137–300 ms (66).
 * So the bench slows every measure of a run down by one slowdown, from one median.
 * @param benchmarkIndexes - each run's `BenchmarkIndex` (artifacts.json), or `lhr.environment.benchmarkIndex`
 * @returns the median index (rounded), every index (rounded), and {@link cpuSlowdownFor} the median; a host
 *   slower than the device gets no slowdown and `emulates: false`
 * @throws when no index is given
 */
export function calibrationOfRuns(benchmarkIndexes: readonly number[]): Calibration {
  if (benchmarkIndexes.length === 0) throw new Error('no Lighthouse run to calibrate');
  const samples = benchmarkIndexes.map((index) => Math.round(index));
  const benchmarkIndex = [...samples].sort((a, b) => a - b)[Math.floor((samples.length - 1) / 2)]!;
  const emulates = Number.isFinite(benchmarkIndex) && benchmarkIndex >= SLOWEST_CALIBRATED_INDEX;
  return { benchmarkIndex, samples, cpuSlowdown: emulates ? cpuSlowdownFor(benchmarkIndex) : 1, emulates };
}
