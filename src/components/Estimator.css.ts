import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';
import { card } from '@/styles/surface.css';

// No layout shift (DESIGN.md §4, CLS 0): every line of the result is one line of a fixed height whatever
// the figure, each problem line keeps its height when empty, and the columns are sized by the grid, not
// by the figures in them; so neither hydration nor a growing figure moves anything.

/** Spans both columns of the pricing section's grid (Pricing.css.ts `layout`). */
export const estimator = style([card, { gridColumn: '1 / -1', minWidth: 0 }]);

export const title = style({ fontSize: '1.375rem', margin: `0 0 ${vars.space.md}` });

// Narrow: the volume, its result, the peak, the button, one under the other (the DOM's order). Wide:
// the result beside the volume, the button beside the peak.
export const columns = style({
  display: 'grid',
  gap: vars.space.lg,
  gridTemplateAreas: '"volume" "result" "peak" "handOver"',
  '@media': {
    'screen and (min-width: 48rem)': {
      gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)',
      gridTemplateAreas: '"volume result" "peak handOver"',
    },
  },
});

export const volume = style({ gridArea: 'volume', display: 'grid', gap: vars.space.sm, alignContent: 'start', minWidth: 0 });

/** A field of the estimator; an entry that cannot be read is marked without changing the field's size. */
export const entry = style({
  selectors: { '&[aria-invalid="true"]': { borderColor: vars.color.danger, boxShadow: `inset 0 0 0 1px ${vars.color.danger}` } },
});

/** A field's problem, told next to it; one line's height kept when there is none. */
export const problem = style({
  color: vars.color.danger,
  fontSize: '0.875rem',
  fontWeight: 600,
  margin: 0,
  minHeight: '1.6em',
});

export const slider = style({
  width: '100%',
  // a touch target of at least 24 px (WCAG 2.5.8), the thumb in the theme's accent
  minHeight: '2.75rem',
  margin: 0,
  accentColor: vars.color.accent,
  cursor: 'pointer',
  selectors: { '&:disabled': { cursor: 'default' } },
});

export const sliderEnds = style({
  display: 'flex',
  justifyContent: 'space-between',
  margin: 0,
  color: vars.color.textMuted,
  fontSize: '0.875rem',
  fontFamily: vars.font.mono,
});

export const peak = style({
  gridArea: 'peak',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  margin: 0,
  padding: vars.space.md,
  minWidth: 0,
});

export const peakFields = style({
  display: 'grid',
  gap: vars.space.sm,
  '@media': { 'screen and (min-width: 30rem)': { gridTemplateColumns: 'minmax(0, 1fr) minmax(0, 1fr)', alignItems: 'end' } },
});

export const results = style({ gridArea: 'result', display: 'grid', gap: vars.space.md, alignContent: 'start', minWidth: 0 });

export const handOver = style({ gridArea: 'handOver', alignSelf: 'start' });

export const output = style({ display: 'grid', gap: vars.space.xs, width: '100%', minWidth: 0 });

const oneLine = { display: 'block', whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' } as const;

export const forVolume = style({ ...oneLine, color: vars.color.textMuted, height: '1.6em' });

export const line = style({ ...oneLine, fontSize: '1.125rem', height: '2.5rem', lineHeight: '2.5rem' });

// Sized with the viewport, so that the largest figure ($2,400,000,000 a year, 1,000B queries a month)
// still fits its line at 320 px.
export const monthly = style({ fontFamily: vars.font.mono, fontWeight: 800, fontSize: 'clamp(1.25rem, 1rem + 2vw, 2rem)', fontVariantNumeric: 'tabular-nums' });

export const yearly = style({ fontFamily: vars.font.mono, fontWeight: 700, fontSize: 'clamp(1.125rem, 0.9rem + 1.5vw, 1.5rem)', fontVariantNumeric: 'tabular-nums' });
