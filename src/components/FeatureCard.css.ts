import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const grid = style({
  display: 'grid',
  gap: vars.space.md,
  gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 15rem), 1fr))',
  listStyle: 'none',
  padding: 0,
  margin: 0,
});

export const card = style({
  height: '100%',
  padding: vars.space.lg,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.lg,
});

export const title = style({ fontSize: '1.125rem', margin: `0 0 ${vars.space.sm}` });

export const body = style({ margin: 0, color: vars.color.textMuted });
