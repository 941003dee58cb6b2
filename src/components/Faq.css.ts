import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const list = style({
  display: 'grid',
  gap: vars.space.lg,
  margin: 0,
  '@media': { 'screen and (min-width: 48rem)': { gridTemplateColumns: '1fr 1fr' } },
});

export const question = style({ fontSize: '1.0625rem', margin: `0 0 ${vars.space.xs}` });

export const answer = style({ margin: 0, color: vars.color.textMuted });

export const note = style({
  marginTop: vars.space.xl,
  padding: vars.space.lg,
  borderInlineStart: `4px solid ${vars.color.accent}`,
  background: vars.color.surfaceRaised,
  borderRadius: vars.radius.md,
});

export const noteTitle = style({ fontSize: '1.125rem', margin: `0 0 ${vars.space.xs}` });
