// The bench's CPU calibration (DESIGN.md §3, §4): Lighthouse's mobile preset slows the CPU down 4×, which
// emulates its mobile device only on a host whose benchmark index is about 1,533. The index of these
// shared machines moved from 1,193 to 3,701 between days, so the bench measures it in the same run and
// slows the CPU down by what Lighthouse's own calculator gives for it.

/**
 * Lighthouse runs gathered before a run's first throttled measure and set aside, whose own benchmark
 * indexes calibrate the run ({@link calibrationOfRuns}: their median). Lighthouse measures the index the
 * same way before every run it gathers (its page function, in a blank page of the Chromium it has just
 * launched, before throttling applies), so the calibration is then the measure the route's runs report,
 * taken the same way under the same load. Each takes about 10 s.
 */
export const CALIBRATION_PILOT_RUNS = 5;
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

/** The calibration at `benchmarkIndex`, which `samples` gave: no slowdown on a host slower than the device. */
function calibrationAt(benchmarkIndex: number, samples: number[]): Calibration {
  const emulates = Number.isFinite(benchmarkIndex) && benchmarkIndex >= SLOWEST_CALIBRATED_INDEX;
  return { benchmarkIndex, samples, cpuSlowdown: emulates ? cpuSlowdownFor(benchmarkIndex) : 1, emulates };
}

/**
 * The calibration for the benchmark indexes a set of Lighthouse runs measured, each a second before its
 * page loaded: the slowdown for their median. It is the run's calibration, from its
 * {@link CALIBRATION_PILOT_RUNS} pilot runs (bench.mjs, `calibrate`), and the report shows it for each
 * route's runs beside the run's (how far they were from it). It replaced a calibration of its own measures
 * in a long-lived Chromium, minutes before the runs, which missed them both ways: the median of 3 in one
 * second (run L, 2026-12-07: 2357, its runs then measured a median of 2765–3120 per route) and the highest
 * of 7 over 20 s (run M, 2026-12-08: 3396, its runs 2765–3188).
 * On these shared machines one index sample moved by 2× within a minute while the page's own tasks did not
 * follow it: re-auditing the same 27 runs of `/` (2026-12-01), each at the slowdown for its own index,
 * spread the page's TBT over 95–890 ms (interquartile range 292 ms), and at one slowdown for all over
 * 137–300 ms (66). So the bench slows every measure of a run down by one slowdown, from one calibration.
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
