import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';
import * as surface from '@/styles/surface.css';

export const grid = style({
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 15rem), 1fr))',
  listStyle: 'none',
  padding: 0,
  margin: 0,
});

export const card = style([surface.card, { height: '100%' }]);

export const title = style({ fontSize: '1.125rem', margin: `0 0 ${vars.space.sm}` });

export const body = style({ margin: 0, color: vars.color.textMuted });
