// The bench's CPU calibration (DESIGN.md §3, §4): Lighthouse's mobile preset slows the CPU down 4×, which
// emulates its mobile device only on a host whose benchmark index is about 1,533. The index of these
// shared machines moved from 1,193 to 3,701 between days, so the bench measures it in the same run and
// slows the CPU down by what Lighthouse's own calculator gives for it.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from '@playwright/test';
import { pageFunctions } from 'lighthouse/core/lib/page-functions.js';

/** Benchmark indexes measured per calibration: the highest is used (one measure takes about 1 s). */
export const BENCHMARK_SAMPLES = 7;
/**
 * The pause between two of a calibration's measures, ms: the 7 spread over about 25 s, so that one busy
 * minute of a shared host does not set the whole run's slowdown (run L, 2026-12-07: 3 measures in one
 * second-long burst gave 2186–2508, its Lighthouse runs then measured 2765–3120).
 */
export const BENCHMARK_SAMPLE_GAP_MS = 3_000;
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
 * `browser`, before anything loads. BENCHMARK_SAMPLES measures, each in a fresh page,
 * BENCHMARK_SAMPLE_GAP_MS apart, and the calibration of their highest ({@link calibrationOfSamples}).
 * @param browser - a Chromium launched with the bench's flags
 * @param gapMs - the pause between two measures, ms (BENCHMARK_SAMPLE_GAP_MS)
 * @returns the index (rounded), every sample, and {@link cpuSlowdownFor} the index; a host slower than the
 *   device (a loaded machine) gets no slowdown and `emulates: false`, which the bench reports as a failed line
 */
export async function calibrateCpu(browser: Browser, gapMs = BENCHMARK_SAMPLE_GAP_MS): Promise<Calibration> {
  const samples: number[] = [];
  for (let i = 0; i < BENCHMARK_SAMPLES; i += 1) {
    if (i > 0) await sleep(gapMs);
    const page = await browser.newPage();
    try {
      samples.push(Math.round(await page.evaluate(pageFunctions.computeBenchmarkIndex)));
    } finally {
      await page.close();
    }
  }
  return calibrationOfSamples(samples);
}

/** The calibration at `benchmarkIndex`, which `samples` gave: no slowdown on a host slower than the device. */
function calibrationAt(benchmarkIndex: number, samples: number[]): Calibration {
  const emulates = Number.isFinite(benchmarkIndex) && benchmarkIndex >= SLOWEST_CALIBRATED_INDEX;
  return { benchmarkIndex, samples, cpuSlowdown: emulates ? cpuSlowdownFor(benchmarkIndex) : 1, emulates };
}

/**
 * The calibration for a calibration's own measures of the host: the slowdown for their **highest**. Other
 * work on a shared host only ever lowers the index (the loop it times gets less of the CPU), never raises
 * it, so the highest of measures spread over time is the closest to the host's own speed; the median of
 * three measures within a second, which this replaced, followed a busy second (run L: 2357, where its
 * Lighthouse runs measured a median of 2765–3120 per route, so every run was slowed down about 25 % less
 * than the device called for). The Lighthouse runs that fall below it are gathered again (bench.mjs,
 * `gatherUnhurried`), and their kept run is likewise the attempt with the highest index. It overshoots
 * too: run M (2026-12-08) calibrated to 3396 (12×) from measures of 2633–3396, and its Lighthouse runs then
 * measured medians of 2765–3188 per route (about 10.3×), so the runs' own indexes are the measure to
 * calibrate from (issue 51's note, Next 1).
 * @param benchmarkIndexes - the measures of {@link calibrateCpu}
 * @returns the highest index (rounded), every index (rounded), and {@link cpuSlowdownFor} the highest; a
 *   host slower than the device gets no slowdown and `emulates: false`
 * @throws when no index is given
 */
export function calibrationOfSamples(benchmarkIndexes: readonly number[]): Calibration {
  if (benchmarkIndexes.length === 0) throw new Error('no benchmark index to calibrate from');
  const samples = benchmarkIndexes.map((index) => Math.round(index));
  return calibrationAt(Math.max(...samples), samples);
}

/**
 * The calibration for the benchmark indexes a set of Lighthouse runs measured, each a second before its
 * page loaded: the slowdown for their median, which the report shows beside the run's own calibration (how
 * far each route's runs were from it). On these shared
 * machines one index sample moved by 2× within a minute while the page's own tasks did not follow it:
 * re-auditing the same 27 runs of `/` (2026-12-01), each at the slowdown for its own index, spread the
 * page's TBT over 95–890 ms (interquartile range 292 ms), and at one slowdown for all over 137–300 ms (66).
 * So the bench slows every measure of a run down by one slowdown, from one calibration.
 * @param benchmarkIndexes - each run's `BenchmarkIndex` (artifacts.json), or `lhr.environment.benchmarkIndex`
 * @returns the median index (rounded), every index (rounded), and {@link cpuSlowdownFor} the median; a host
 *   slower than the device gets no slowdown and `emulates: false`
 * @throws when no index is given
 */
export function calibrationOfRuns(benchmarkIndexes: readonly number[]): Calibration {
  if (benchmarkIndexes.length === 0) throw new Error('no Lighthouse run to calibrate');
  const samples = benchmarkIndexes.map((index) => Math.round(index));
  return calibrationAt([...samples].sort((a, b) => a - b)[Math.floor((samples.length - 1) / 2)]!, samples);
}
