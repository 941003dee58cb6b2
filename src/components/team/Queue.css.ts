import { globalStyle, style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';
import { box } from '@/styles/surface.css';

export const toolbar = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'end', gap: vars.space.md, marginBottom: vars.space.md });

export const filters = style({
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 12rem), 1fr))',
  flex: '1 1 36rem',
});


/** Below this width the queue drops its Received and Kind columns and shows them under the name, so that State, Verification and Due stay on screen (375 px phones). */
const NARROW = 'screen and (max-width: 40rem)';

/** The table's frame; on a narrow screen it runs to the screen's edges (over the page's side padding), for the state columns' room. */
export const tableWrap = style({
  overflowX: 'auto',
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
  '@media': { [NARROW]: { marginInline: `calc(-1 * ${vars.space.md})`, borderInline: 'none', borderRadius: 0 } },
});

export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: '0.9375rem', '@media': { [NARROW]: { fontSize: '0.8125rem' } } });

export const caption = style({ textAlign: 'start', padding: vars.space.sm, color: vars.color.textMuted });

/** A column heading: the name column's may wrap between words, none breaks inside a word. */
export const headCell = style({
  textAlign: 'start',
  padding: vars.space.sm,
  borderBottom: `2px solid ${vars.color.border}`,
  background: vars.color.surface,
  overflowWrap: 'normal',
  '@media': { [NARROW]: { padding: vars.space.xs } },
});

/** A cell: a requester's long word (a name, a company) breaks anywhere, so its column shrinks and the state columns keep their room. */
export const cell = style({
  padding: vars.space.sm,
  borderBottom: `1px solid ${vars.color.border}`,
  verticalAlign: 'top',
  overflowWrap: 'anywhere',
  '@media': { [NARROW]: { padding: vars.space.xs } },
});

// a state or due badge may take two lines on a phone rather than push the columns off screen
globalStyle(`${cell} > span`, { '@media': { [NARROW]: { whiteSpace: 'normal', fontSize: 'inherit' } } });

/** The Received and Kind columns (heading and cells): shown on wide screens only; {@link narrowOnly} repeats them under the name. */
export const wideOnly = style({ '@media': { [NARROW]: { display: 'none' } } });

/** The kind and day under a request's name on narrow screens, where their own columns are hidden. */
export const narrowOnly = style({ display: 'none', color: vars.color.textMuted, fontSize: '0.875rem', '@media': { [NARROW]: { display: 'block' } } });

export const row = style({
  cursor: 'pointer',
  selectors: {
    '&:hover': { background: vars.color.surface },
    // the row the keyboard is on (roving tabindex): a visible ring inside the table, in both schemes
    '&:focus, &:focus-visible': { outline: `3px solid ${vars.color.focus}`, outlineOffset: '-3px' },
    '&[data-selected="true"]': { background: vars.color.surface, boxShadow: `inset 4px 0 0 ${vars.color.accent}` },
  },
});

export const muted = style({ color: vars.color.textMuted, fontSize: '0.875rem', display: 'block' });

export const more = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.md, alignItems: 'center', marginTop: vars.space.md });

export const keys = style({ color: vars.color.textMuted, fontSize: '0.875rem', margin: `${vars.space.sm} 0` });

export const bulk = style([
  box,
  { position: 'sticky', bottom: 0, display: 'grid', gap: vars.space.sm, marginBlock: vars.space.md, background: vars.color.surfaceRaised },
]);
