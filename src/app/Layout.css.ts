import { style } from '@vanilla-extract/css';
import { vars } from '@/styles/theme.css';

export const shell = style({ display: 'flex', flexDirection: 'column', minHeight: '100vh' });

export const main = style({ flex: '1 0 auto' });

export const skipLink = style({
  position: 'absolute',
  left: vars.space.sm,
  top: vars.space.sm,
  zIndex: 100,
  padding: `${vars.space.sm} ${vars.space.md}`,
  background: vars.color.accent,
  color: vars.color.accentText,
  borderRadius: vars.radius.sm,
  transform: 'translateY(-200%)',
  selectors: { '&:focus': { transform: 'none' } },
});
