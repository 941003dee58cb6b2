/**
 * Copy of the cost estimator in the pricing section (spec §2 section 3, §9). Its own module, imported by
 * the estimator's chunk only, so none of it is in the first load of `/` (DESIGN.md §4).
 */
export const estimator = {
  title: 'Estimate your cost',
  queries: 'Queries per month',
  queriesHint: 'Like 12M, 1.5B, 250k or 12,000,000',
  /** the slider's label, with its ends as the page writes them (`100k`, `10B`) */
  slider: (min: string, max: string) => `Queries per month, ${min} to ${max}`,
  peakLegend: 'Or start from your peak',
  peakQps: 'Peak QPS',
  peakQpsPlaceholder: 'like 300',
  shareOfDay: 'Share of the day at peak (%)',
  shareOfDayPlaceholder: 'like 25',
  peakNote: 'Queries per month = peak QPS × share of the day × 86,400 seconds × 30 days.',
  problems: {
    unreadable: 'Write a number of queries, like 12M',
    tooMany: (max: string) => `Write at most ${max} queries a month; for more, tell us in the invite request`,
    peakQps: 'Write a peak in queries per second, like 300',
    shareOfDay: 'Write a share of the day in percent, more than 0 and at most 100, like 25',
    peakTooMany: (max: string) => `That peak makes more than ${max} queries a month; for more, tell us in the invite request`,
  },
  /** the result's first line, with the volume as the page writes it (`12M`) */
  forVolume: (volume: string) => `For ${volume} queries a month:`,
  perMonth: 'a month',
  perYear: 'a year',
  /** the price as the page writes it (`$0.20`), from src/config/site.ts */
  basis: (price: string) => `At the beta price of ${price} per 1,000 queries; a month is 30 days.`,
  handOver: 'Request an invite with this estimate',
} as const;
