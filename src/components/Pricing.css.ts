import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const layout = style({
  display: 'grid',
  gap: vars.space.lg,
  '@media': { 'screen and (min-width: 48rem)': { gridTemplateColumns: '1fr 1fr' } },
});

export const priceCard = style({
  padding: vars.space.lg,
  background: vars.color.surfaceRaised,
  border: `2px solid ${vars.color.accent}`,
  borderRadius: vars.radius.lg,
});

export const price = style({ fontSize: '2.5rem', fontWeight: 800, margin: 0, fontFamily: vars.font.mono });

export const unit = style({ margin: `0 0 ${vars.space.md}`, color: vars.color.textMuted });

export const includes = style({ margin: 0, paddingInlineStart: vars.space.lg });

export const examples = style({ width: '100%', borderCollapse: 'collapse', alignSelf: 'start' });

export const cell = style({
  textAlign: 'start',
  padding: `${vars.space.sm} ${vars.space.md}`,
  borderBottom: `1px solid ${vars.color.border}`,
});

export const caption = style({ textAlign: 'start', fontWeight: 700, fontSize: '1.125rem', marginBottom: vars.space.sm });
