import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const hero = style({
  paddingBlock: `${vars.space.xl} ${vars.space.xxl}`,
  background: `linear-gradient(180deg, ${vars.color.surface}, ${vars.color.background})`,
});

export const eyebrow = style({
  display: 'inline-block',
  margin: `0 0 ${vars.space.md}`,
  padding: `${vars.space.xs} ${vars.space.sm}`,
  border: `1px solid ${vars.color.border}`,
  borderRadius: '999px',
  fontSize: '0.875rem',
  fontWeight: 600,
});

export const headline = style({
  fontSize: 'clamp(2rem, 1.4rem + 3vw, 3.5rem)',
  margin: `0 0 ${vars.space.md}`,
  maxWidth: '18ch',
});

export const facts = style({
  display: 'flex',
  flexWrap: 'wrap',
  gap: vars.space.sm,
  listStyle: 'none',
  padding: 0,
  margin: `0 0 ${vars.space.lg}`,
});

export const fact = style({
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.surfaceRaised,
  border: `1px solid ${vars.color.border}`,
  borderRadius: vars.radius.md,
});

export const factFigure = style({ fontWeight: 700, fontFamily: vars.font.mono });

export const actions = style({ display: 'flex', flexWrap: 'wrap', gap: vars.space.sm, margin: `0 0 ${vars.space.md}` });

export const betaNote = style({ color: vars.color.textMuted, margin: 0, fontSize: '0.9375rem' });
