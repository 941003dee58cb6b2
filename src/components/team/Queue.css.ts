import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';
import { box } from '@/styles/surface.css';

export const toolbar = style({ display: 'flex', flexWrap: 'wrap', alignItems: 'end', gap: vars.space.md, marginBottom: vars.space.md });

export const filters = style({
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 12rem), 1fr))',
  flex: '1 1 36rem',
});

export const tableWrap = style({ overflowX: 'auto', border: `1px solid ${vars.color.border}`, borderRadius: vars.radius.md });

export const table = style({ width: '100%', borderCollapse: 'collapse', fontSize: '0.9375rem' });

export const caption = style({ textAlign: 'start', padding: vars.space.sm, color: vars.color.textMuted });

export const headCell = style({
  textAlign: 'start',
  padding: vars.space.sm,
  borderBottom: `2px solid ${vars.color.border}`,
  background: vars.color.surface,
  whiteSpace: 'nowrap',
});

export const cell = style({ padding: vars.space.sm, borderBottom: `1px solid ${vars.color.border}`, verticalAlign: 'top' });

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
