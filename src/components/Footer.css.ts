import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const footer = style({
  marginTop: 'auto',
  background: vars.color.surface,
  borderTop: `1px solid ${vars.color.border}`,
  paddingBlock: vars.space.xl,
});

export const columns = style({
  display: 'grid',
  gap: vars.space.lg,
  gridTemplateColumns: '1fr',
  '@media': {
    'screen and (min-width: 36rem)': { gridTemplateColumns: 'repeat(2, 1fr)' },
    'screen and (min-width: 60rem)': { gridTemplateColumns: '2fr 1fr 1.5fr 1fr' },
  },
});

export const brand = style({ fontWeight: 800, fontSize: '1.125rem', margin: 0 });

export const tagline = style({ color: vars.color.textMuted, margin: `${vars.space.xs} 0 0` });

export const columnTitle = style({ fontSize: '1rem', margin: `0 0 ${vars.space.sm}` });

export const list = style({
  listStyle: 'none',
  margin: 0,
  padding: 0,
  display: 'grid',
  gap: vars.space.xs,
});

export const link = style({
  display: 'inline-block',
  paddingBlock: '0.125rem',
});

export const gpcNotice = style({
  marginTop: vars.space.sm,
  fontSize: '0.875rem',
  color: vars.color.success,
});

export const copyright = style({
  marginTop: vars.space.xl,
  color: vars.color.textMuted,
  fontSize: '0.875rem',
});
