import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';
import { box } from '@/styles/surface.css';

export const layout = style({
  display: 'grid',
  gap: vars.space.xl,
  '@media': { 'screen and (min-width: 64rem)': { gridTemplateColumns: 'minmax(0, 3fr) minmax(0, 2fr)', alignItems: 'start' } },
});

export const list = style({ display: 'grid', gap: vars.space.sm, margin: 0, padding: 0, listStyle: 'none' });

export const item = style([box, { display: 'grid', gap: vars.space.xs, background: vars.color.surfaceRaised }]);

export const name = style({ margin: 0, fontSize: '1.125rem' });

export const meter = style({ width: '100%', maxWidth: '20rem', height: '0.75rem', accentColor: vars.color.accent });

export const error = style({ color: vars.color.danger, margin: 0, fontSize: '0.875rem', fontWeight: 600 });
