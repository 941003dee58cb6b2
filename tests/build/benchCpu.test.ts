// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { calibrationOfRuns, cpuSlowdownFor } from '../../scripts/benchCpu.ts';

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

describe("the calibration of a set of Lighthouse runs: the run's, from its pilot runs, and each route's, reported", () => {
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
