import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const layout = style({
  display: 'grid',
  gap: vars.space.xl,
  '@media': { 'screen and (min-width: 64rem)': { gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', alignItems: 'start' } },
});

export const block = style({ display: 'grid', gap: vars.space.md, minWidth: 0 });

export const heading = style({ fontSize: '1.25rem', margin: 0 });

export const facts = style({ display: 'grid', gridTemplateColumns: 'minmax(8rem, auto) 1fr', gap: `${vars.space.xs} ${vars.space.md}`, margin: 0 });

export const term = style({ fontWeight: 600, color: vars.color.textMuted });

/** a value as submitted: inert text, its line breaks kept, long words wrapped */
export const value = style({ margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' });

export const timeline = style({ margin: 0, paddingInlineStart: vars.space.lg, display: 'grid', gap: vars.space.sm });

export const entryDetails = style({ color: vars.color.textMuted, fontSize: '0.875rem', display: 'block', overflowWrap: 'anywhere' });

export const links = style({ margin: 0, paddingInlineStart: vars.space.lg });

export const pair = style({ display: 'contents' });
