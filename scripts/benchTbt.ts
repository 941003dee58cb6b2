// Where a Lighthouse run's Total Blocking Time lies (DESIGN.md §4, issue 51: "find which tasks those ms
// are"): the bench splits each run's TBT by what Lighthouse attributes each long task to, so that every run
// tells the page's own document (the HTML parsed, styled and laid out after the first paint) from its
// scripts, on the floor and on the page alike.

/** Lighthouse's threshold: the part of a main-thread task beyond it is blocking time (TBT), ms. */
export const BLOCKING_THRESHOLD_MS = 50;

/** The part of a Lighthouse report (an LHR) that {@link tbtByAttribution} reads. */
export interface TbtReport {
  audits: {
    'first-contentful-paint': { numericValue?: number };
    interactive?: { numericValue?: number };
    'long-tasks'?: { details?: { items?: { url: string; startTime: number; duration: number }[] } };
  };
}

/** A run's TBT by attribution ({@link tbtByAttribution}), each ms. */
export interface TbtSplit {
  /** Tasks attributed to the page's own URL: HTML parsing, with the style, layout and paint of the same task. */
  documentTbtMs: number;
  /** Tasks attributed to a script (a URL whose path ends in .js or .mjs): evaluation, hydration, event handlers. */
  scriptTbtMs: number;
  /** Tasks Lighthouse attributes to nothing it can name ("Unattributable", "Browser", "Browser GC"). */
  otherTbtMs: number;
}

/**
 * Splits a run's TBT by the URL that Lighthouse's `long-tasks` audit attributes each long task to (the
 * audit lists the 20 longest tasks, each with its start, duration and URL, ms from the navigation's start).
 * Each task counts as Lighthouse's TBT counts it: the part between FCP and TTI, less
 * {@link BLOCKING_THRESHOLD_MS}, when that part is longer than the threshold. The three parts add up to the
 * run's TBT unless more than 20 tasks were long.
 * @param report - a Lighthouse report of a navigation (`lhr`)
 * @param documentUrl - the page's URL as Lighthouse attributes its document's tasks, e.g. `http://127.0.0.1:4190/terms`
 * @returns the split, each part in ms (0 when the report lists no long task)
 * @throws when the report has no FCP (a run whose trace was lost)
 */
export function tbtByAttribution(report: TbtReport, documentUrl: string): TbtSplit {
  const fcp = report.audits['first-contentful-paint'].numericValue;
  if (typeof fcp !== 'number') throw new Error(`${documentUrl}: the report has no FCP`);
  const tti = report.audits.interactive?.numericValue ?? Number.POSITIVE_INFINITY;
  const split: TbtSplit = { documentTbtMs: 0, scriptTbtMs: 0, otherTbtMs: 0 };
  for (const task of report.audits['long-tasks']?.details?.items ?? []) {
    const clipped = Math.min(task.startTime + task.duration, tti) - Math.max(task.startTime, fcp);
    if (clipped <= BLOCKING_THRESHOLD_MS) continue;
    const part = task.url === documentUrl ? 'documentTbtMs' : isScriptUrl(task.url) ? 'scriptTbtMs' : 'otherTbtMs';
    split[part] += clipped - BLOCKING_THRESHOLD_MS;
  }
  return split;
}

/** Whether a task's attributed URL is a script's: an http(s) URL whose path ends in .js or .mjs. */
function isScriptUrl(url: string): boolean {
  try {
    const { protocol, pathname } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') && /\.m?js$/.test(pathname);
  } catch {
    return false; // "Unattributable", "Browser": not URLs
  }
}
