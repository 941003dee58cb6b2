// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { BLOCKING_THRESHOLD_MS, tbtByAttribution, type TbtReport } from '../../scripts/benchTbt.ts';

// The bench's split of a Lighthouse run's TBT (scripts/benchTbt.ts), on reports shaped as Lighthouse 12
// writes them: FCP at 1,000 ms, TTI at 3,000 ms, and the long tasks of the `long-tasks` audit.
const PAGE = 'http://127.0.0.1:4190/terms';

function reportWith(items: { url: string; startTime: number; duration: number }[], tti: number | null = 3000): TbtReport {
  return {
    audits: {
      'first-contentful-paint': { numericValue: 1000 },
      ...(tti === null ? {} : { interactive: { numericValue: tti } }),
      'long-tasks': { details: { items } },
    },
  };
}

describe('where a run\'s TBT lies', () => {
  it('counts each long task after FCP beyond 50 ms, by the document, a script or nothing named', () => {
    const split = tbtByAttribution(reportWith([
      { url: PAGE, startTime: 1100, duration: 150 },
      { url: 'http://127.0.0.1:4190/assets/react-dom-LP13aeS-.js', startTime: 2300, duration: 80 },
      { url: 'http://127.0.0.1:4190/assets/chunk.mjs?v=2', startTime: 2400, duration: 60 },
      { url: 'Unattributable', startTime: 2500, duration: 99 },
      { url: 'Browser GC', startTime: 2700, duration: 70 },
    ]), PAGE);
    expect(split).toEqual({ documentTbtMs: 100, scriptTbtMs: 40, otherTbtMs: 69 });
  });

  it('counts nothing of a task of 50 ms, and 1 ms of one of 51 ms, as Lighthouse does', () => {
    expect(tbtByAttribution(reportWith([{ url: PAGE, startTime: 1500, duration: BLOCKING_THRESHOLD_MS }]), PAGE).documentTbtMs).toBe(0);
    expect(tbtByAttribution(reportWith([{ url: PAGE, startTime: 1500, duration: BLOCKING_THRESHOLD_MS + 1 }]), PAGE).documentTbtMs).toBe(1);
  });

  it('counts a task only from FCP and up to TTI, and nothing of one before FCP or after TTI', () => {
    const split = tbtByAttribution(reportWith([
      { url: PAGE, startTime: 600, duration: 300 }, // ends before FCP
      { url: PAGE, startTime: 900, duration: 200 }, // 100 ms after FCP
      { url: 'Unattributable', startTime: 2900, duration: 200 }, // 100 ms before TTI
      { url: 'Unattributable', startTime: 3100, duration: 400 }, // after TTI
    ]), PAGE);
    expect(split).toEqual({ documentTbtMs: 50, scriptTbtMs: 0, otherTbtMs: 50 });
  });

  it('counts to the end of every task when the report has no TTI', () => {
    expect(tbtByAttribution(reportWith([{ url: PAGE, startTime: 5000, duration: 120 }], null), PAGE).documentTbtMs).toBe(70);
  });

  it('tells the document from another page of the site and from a script of the same path', () => {
    const split = tbtByAttribution(reportWith([
      { url: 'http://127.0.0.1:4190/privacy', startTime: 1200, duration: 100 },
      { url: `${PAGE}.js`, startTime: 1400, duration: 100 },
    ]), PAGE);
    expect(split).toEqual({ documentTbtMs: 0, scriptTbtMs: 50, otherTbtMs: 50 });
  });

  it('is 0 throughout with no long task, and refuses a report without FCP', () => {
    expect(tbtByAttribution({ audits: { 'first-contentful-paint': { numericValue: 1000 } } }, PAGE)).toEqual({ documentTbtMs: 0, scriptTbtMs: 0, otherTbtMs: 0 });
    expect(() => tbtByAttribution({ audits: { 'first-contentful-paint': {} } }, PAGE)).toThrow(/no FCP/);
  });
});
